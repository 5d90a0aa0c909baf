package dem

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// signalFile counts the reads of a source file and calls onRead (with
// the count) after each.
type signalFile struct {
	SourceFile
	reads  *atomic.Int64
	onRead func(n int64)
}

func (f signalFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.SourceFile.ReadAt(p, off)
	f.onRead(f.reads.Add(1))
	return n, err
}

// TestCancelStopsTheReadLoop: a DEM export cancelled while it reads its
// source (the context is cancelled from inside a read, a third of the way
// through) returns context.Canceled, reads at most a few more blocks
// (those of the row being read), and leaves no artifact.
func TestCancelStopsTheReadLoop(t *testing.T) {
	rec := demoRecord(t, 1.0/2400) // 2,400 rows
	open := func(reads *atomic.Int64, onRead func(int64)) func(string) (SourceFile, error) {
		return func(p string) (SourceFile, error) {
			f, err := openFile(p)
			if err != nil {
				return nil, err
			}
			return signalFile{SourceFile: f, reads: reads, onRead: onRead}, nil
		}
	}
	var all atomic.Int64
	_, err := New(Options{Open: open(&all, func(int64) {})}).Export(t.Context(), job(t, rec, nil), testout.New(t.TempDir()))
	require.NoError(t, err)
	total := all.Load()
	require.Greater(t, total, int64(30), "the source is read in many blocks")

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var reads, atCancel atomic.Int64
	x := New(Options{Open: open(&reads, func(n int64) {
		if n == total/3 {
			atCancel.Store(n)
			cancel()
		}
	})})
	dir := t.TempDir()
	_, err = x.Export(ctx, job(t, rec, nil), testout.New(dir))
	assert.ErrorIs(t, err, context.Canceled)
	require.Positive(t, atCancel.Load(), "the export was cancelled mid-read")
	after := reads.Load() - atCancel.Load()
	assert.LessOrEqual(t, after, max(total/20, 4), "reads after the cancel (of %d in all)", total)
	assert.Empty(t, files(t, dir))
}
