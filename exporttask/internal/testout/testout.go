// Package testout is an [export.Output] on a directory, for this
// module's exporter tests: committed files land in the directory, aborted
// ones vanish, and every progress report is recorded.
package testout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// Dir writes artifacts into a directory.
type Dir struct {
	Path string

	mu       sync.Mutex
	progress [][2]int64
	stop     error
}

var _ export.Output = (*Dir)(nil)

// New returns a Dir writing into path, which must exist.
func New(path string) *Dir { return &Dir{Path: path} }

// StopWith makes every later Progress call return err, as an abort would.
func (d *Dir) StopWith(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stop = err
}

// Progress records the report.
func (d *Dir) Progress(done, total int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.progress = append(d.progress, [2]int64{done, total})
	return d.stop
}

// Reports returns the progress reports so far, as (done, total) pairs.
func (d *Dir) Reports() [][2]int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([][2]int64(nil), d.progress...)
}

// Create starts the file name in the directory.
func (d *Dir) Create(_ context.Context, name string) (artifact.Writer, error) {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return nil, fmt.Errorf("testout: bad artifact name %q", name)
	}
	f, err := os.CreateTemp(d.Path, ".partial-*")
	if err != nil {
		return nil, fmt.Errorf("testout: %w", err)
	}
	return &writer{f: f, final: filepath.Join(d.Path, name), key: name, h: sha256.New()}, nil
}

type writer struct {
	f     *os.File
	final string
	key   string
	h     hash.Hash
	n     int64
	done  bool
}

func (w *writer) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.h.Write(p[:n])
	w.n += int64(n)
	return n, err
}

func (w *writer) Commit() (artifact.Info, error) {
	if w.done {
		return artifact.Info{}, errors.New("testout: writer already finished")
	}
	w.done = true
	if err := w.f.Close(); err != nil {
		os.Remove(w.f.Name())
		return artifact.Info{}, fmt.Errorf("testout: %w", err)
	}
	if err := os.Rename(w.f.Name(), w.final); err != nil {
		os.Remove(w.f.Name())
		return artifact.Info{}, fmt.Errorf("testout: %w", err)
	}
	st, err := os.Stat(w.final)
	if err != nil {
		return artifact.Info{}, fmt.Errorf("testout: %w", err)
	}
	return artifact.Info{Key: w.key, Size: w.n, ModTime: st.ModTime(), SHA256: hex.EncodeToString(w.h.Sum(nil))}, nil
}

func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.f.Close()
	return os.Remove(w.f.Name())
}
