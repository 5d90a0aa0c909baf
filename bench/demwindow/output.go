package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

// dirOutput writes artifacts into a directory, hashing them as the real
// outputs do.
type dirOutput struct{ dir string }

func (o *dirOutput) Progress(done, total int64) error { return nil }

func (o *dirOutput) Create(_ context.Context, name string) (artifact.Writer, error) {
	f, err := os.CreateTemp(o.dir, ".partial-*")
	if err != nil {
		return nil, err
	}
	return &fileWriter{f: f, final: filepath.Join(o.dir, name), h: sha256.New()}, nil
}

type fileWriter struct {
	f     *os.File
	final string
	h     hash.Hash
	n     int64
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.h.Write(p[:n])
	w.n += int64(n)
	return n, err
}

func (w *fileWriter) Commit() (artifact.Info, error) {
	if err := w.f.Close(); err != nil {
		return artifact.Info{}, err
	}
	if err := os.Rename(w.f.Name(), w.final); err != nil {
		return artifact.Info{}, err
	}
	return artifact.Info{Key: filepath.Base(w.final), Size: w.n, SHA256: hex.EncodeToString(w.h.Sum(nil))}, nil
}

func (w *fileWriter) Abort() error {
	w.f.Close()
	return os.Remove(w.f.Name())
}
