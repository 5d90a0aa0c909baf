package tiles3d

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// stopAfter is a writer that ends a context once n bytes went through it.
type stopAfter struct {
	n      int64
	cancel context.CancelFunc
}

func (s *stopAfter) Write(p []byte) (int, error) {
	if s.n -= int64(len(p)); s.n <= 0 {
		s.cancel()
	}
	return len(p), nil
}

// TestCopyEntryStopsWithinAFile: a stop (DELETE, shutdown) while a large
// content file is copied into the zip ends the copy at the next read,
// not once the whole file is in. Before, the context was looked at only
// between files, and a file may hold a gigabyte.
func TestCopyEntryStopsWithinAFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.glb"), make([]byte, 8<<20), 0o644))
	root, err := sourcefs.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	w := &stopAfter{n: 1 << 20, cancel: cancel}
	cw := &countWriter{w: w}
	err = copyEntry(ctx, zip.NewWriter(cw), root, "big.glb", time.Now())
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, cw.n, int64(2<<20), "the copy stopped soon after the stop, not at the end of the file")
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.w.Write(p)
}
