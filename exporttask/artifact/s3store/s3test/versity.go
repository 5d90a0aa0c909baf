package s3test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// Credentials of the gateways that [StartVersity] starts.
const (
	VersityAccessKey = "viewer-test-access"
	VersitySecretKey = "viewer-test-secret-key"
)

// startTimeout bounds how long a gateway may take to answer.
const startTimeout = 60 * time.Second

// Versity is a running Versity Gateway with the posix backend. Its methods
// are for one goroutine (the test's).
type Versity struct {
	Endpoint string // http://127.0.0.1:PORT

	binary, dir, addr string
	cmd               *exec.Cmd
	exited            chan struct{} // closed when the process has ended
	err               error         // its exit status, once exited is closed
	log               *syncBuffer
}

// StartVersity starts binary (a versitygw executable) with its posix
// backend on dir, listening on a free loopback port, and waits until it
// answers HTTP. Stop it with [Versity.Close].
func StartVersity(ctx context.Context, binary, dir string) (*Versity, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("s3test: %w", err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	v := &Versity{Endpoint: "http://" + addr, binary: binary, dir: dir, addr: addr, log: &syncBuffer{}}
	if err := v.start(ctx); err != nil {
		return nil, err
	}
	return v, nil
}

// start starts the process and waits until it answers.
func (v *Versity) start(ctx context.Context) error {
	cmd := exec.Command(v.binary, "--port", v.addr, "posix", v.dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+VersityAccessKey, "ROOT_SECRET_KEY="+VersitySecretKey)
	cmd.Stdout, cmd.Stderr = v.log, v.log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("s3test: start %s: %w", v.binary, err)
	}
	exited := make(chan struct{})
	v.cmd, v.exited, v.err = cmd, exited, nil
	go func() {
		v.err = cmd.Wait()
		close(exited)
	}()
	if err := v.waitReady(ctx); err != nil {
		v.Close()
		return fmt.Errorf("s3test: %s on %s: %w\n%s", v.binary, v.addr, err, v.log.String())
	}
	return nil
}

// Restart starts a stopped gateway again on the same address and data,
// as a test of an outage does after [Versity.Close].
func (v *Versity) Restart(ctx context.Context) error {
	if err := v.Close(); err != nil {
		return err
	}
	return v.start(ctx)
}

// waitReady polls the endpoint until it answers, the process ends or the
// deadline passes.
func (v *Versity) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.Endpoint+"/", nil)
		if err != nil {
			return err
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil // any answer (403 without credentials) means it serves
		}
		select {
		case <-v.exited:
			return fmt.Errorf("exited before answering: %v", v.err)
		case <-ctx.Done():
			return fmt.Errorf("no answer: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// Close stops the gateway and waits for it to exit. Closing a stopped
// gateway does nothing.
func (v *Versity) Close() error {
	select {
	case <-v.exited:
		return nil
	default:
	}
	_ = v.cmd.Process.Signal(os.Interrupt)
	select {
	case <-v.exited:
	case <-time.After(10 * time.Second):
		_ = v.cmd.Process.Kill()
		<-v.exited
	}
	var exit *exec.ExitError
	if v.err != nil && !errors.As(v.err, &exit) {
		return fmt.Errorf("s3test: stop versitygw: %w", v.err)
	}
	return nil
}

// PID returns the gateway's process id.
func (v *Versity) PID() int { return v.cmd.Process.Pid }

// Log returns what the gateway printed so far.
func (v *Versity) Log() string { return v.log.String() }

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer is a bytes.Buffer safe for the process's writers and readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
