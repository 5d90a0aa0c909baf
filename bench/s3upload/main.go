// Command s3upload measures the S3 artifact store: it uploads one file
// through s3store to a Versity Gateway on loopback and copies the same file
// with cp on the same disk, in the same run, and reports the throughput of
// both, their ratio, and this process's peak resident memory (VmHWM)
// during the upload.
//
//	cd bench
//	go run ./s3upload                  # 1 GiB in a temporary directory
//	go run ./s3upload -size 256MiB -dir /var/tmp
//
// It needs versitygw on PATH or in $GOPATH/bin (go install
// github.com/versity/versitygw/cmd/versitygw@v1.8.0).
package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
)

func main() {
	var (
		size        = flag.String("size", "1GiB", "size of the file (bytes, or with KiB, MiB, GiB)")
		dir         = flag.String("dir", "", "directory for the file, its copy and the gateway's data (default: a new one under $TMPDIR)")
		partSize    = flag.Int64("part-size", s3store.DefaultPartSize, "s3store part size in bytes")
		concurrency = flag.Int("concurrency", s3store.DefaultConcurrency, "s3store parts in flight")
		gateway     = flag.String("versitygw", "", "versitygw binary (default: from PATH or $GOPATH/bin)")
	)
	flag.Parse()
	n, err := parseSize(*size)
	if err != nil {
		log.Fatalf("s3upload: -size: %v", err)
	}
	if err := run(context.Background(), n, *dir, *partSize, *concurrency, *gateway); err != nil {
		log.Fatalf("s3upload: %v", err)
	}
}

func run(ctx context.Context, size int64, dir string, partSize int64, concurrency int, gateway string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "s3upload")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	if gateway == "" {
		p, err := findVersity()
		if err != nil {
			return err
		}
		gateway = p
	}
	src := filepath.Join(dir, "artifact.bin")
	fmt.Printf("s3upload: %s file in %s, part size %d MiB, %d parts in flight, GOMAXPROCS=%d\n",
		human(size), dir, partSize>>20, concurrency, runtime.GOMAXPROCS(0))
	digest, err := makeFile(src, size)
	if err != nil {
		return err
	}

	// cp of the same file to the same disk.
	start := time.Now()
	if out, err := exec.Command("cp", src, filepath.Join(dir, "copy.bin")).CombinedOutput(); err != nil {
		return fmt.Errorf("cp: %v: %s", err, out)
	}
	cpTime := time.Since(start)
	if err := os.Remove(filepath.Join(dir, "copy.bin")); err != nil {
		return err
	}

	data := filepath.Join(dir, "s3")
	if err := os.Mkdir(data, 0o755); err != nil {
		return err
	}
	v, err := s3test.StartVersity(ctx, gateway, data)
	if err != nil {
		return err
	}
	defer v.Close()
	store, err := s3store.New(s3store.Config{
		Bucket: "bench", Endpoint: v.Endpoint,
		AccessKeyID: s3test.VersityAccessKey, SecretAccessKey: s3test.VersitySecretKey,
		PartSize: partSize, Concurrency: concurrency,
	})
	if err != nil {
		return err
	}
	if err := store.CreateBucket(ctx); err != nil {
		return err
	}

	runtime.GC()
	if err := resetPeakRSS(); err != nil {
		return err
	}
	cpuBefore, gwBefore := cpuTime(), procCPU(v.PID())
	start = time.Now()
	sha, err := upload(ctx, store, src)
	if err != nil {
		return err
	}
	upTime := time.Since(start)
	cpu, gw := cpuTime()-cpuBefore, procCPU(v.PID())-gwBefore
	peak, err := peakRSS()
	if err != nil {
		return err
	}
	if sha != digest {
		return fmt.Errorf("upload's SHA-256 %s, file's %s", sha, digest)
	}
	o, err := store.Open(ctx, "1/artifact.bin")
	if err != nil {
		return err
	}
	o.Close()
	if got := o.Info().Size; got != size {
		return fmt.Errorf("stored %d bytes, want %d", got, size)
	}

	mbps := func(d time.Duration) float64 { return float64(size) / 1e6 / d.Seconds() }
	fmt.Printf("cp:       %7.2fs %8.1f MB/s\n", cpTime.Seconds(), mbps(cpTime))
	fmt.Printf("s3store:  %7.2fs %8.1f MB/s  (%.2fx cp)  peak RSS %d MiB (VmHWM during the upload)\n",
		upTime.Seconds(), mbps(upTime), mbps(upTime)/mbps(cpTime), peak>>20)
	fmt.Printf("          CPU (user+system) during the upload: this process %.2fs, the gateway %.2fs\n", cpu.Seconds(), gw.Seconds())
	fmt.Printf("verified: stored size %d, SHA-256 %s…\n", size, digest[:16])
	return nil
}

// upload streams the file into the store and commits it.
func upload(ctx context.Context, store *s3store.Store, src string) (string, error) {
	f, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer f.Close()
	w, err := store.Create(ctx, "1/artifact.bin")
	if err != nil {
		return "", err
	}
	defer w.Abort()
	if _, err := io.CopyBuffer(w, f, make([]byte, 1<<20)); err != nil {
		return "", err
	}
	info, err := w.Commit()
	if err != nil {
		return "", err
	}
	return info.SHA256, nil
}

// makeFile writes size bytes of random blocks to name, synced, and returns
// their SHA-256.
func makeFile(name string, size int64) (string, error) {
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	block := make([]byte, 4<<20)
	h := sha256.New()
	for left := size; left > 0; {
		_, _ = rand.Read(block) // never fails (crypto/rand)
		chunk := block[:min(int64(len(block)), left)]
		if _, err := f.Write(chunk); err != nil {
			return "", err
		}
		h.Write(chunk)
		left -= int64(len(chunk))
	}
	if err := f.Sync(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), f.Close()
}

// cpuTime returns the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU returns the user and system CPU time of process pid, from
// /proc/PID/stat (in clock ticks of 1/100 s), or 0 if unreadable.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces) in ")".
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// resetPeakRSS resets the kernel's VmHWM of this process (Linux 4.0+).
func resetPeakRSS() error {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS returns VmHWM of this process in bytes.
func peakRSS() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

func findVersity() (string, error) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "versitygw")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("versitygw not found on PATH or in $GOPATH/bin; use -versitygw")
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if rest, ok := strings.CutSuffix(s, suffix); ok {
			s, mult = rest, m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a positive size", s)
	}
	return n * mult, nil
}

func human(n int64) string {
	if n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
