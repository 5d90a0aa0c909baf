//go:build unix

package register

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestAddCopyCopiesNothingFromOutside: -copy of a directory holding a
// link to a file outside it (standing for /etc/shadow), a link to a
// directory outside, a link to /dev/zero or a FIFO is refused, promptly,
// and leaves nothing in the catalog.
func TestAddCopyCopiesNothingFromOutside(t *testing.T) {
	shadow := writeFile(t, t.TempDir(), "shadow", "root:$6$secret:19000::::::")
	for name, mk := range map[string]func(p string) error{
		"link to a file outside":      func(p string) error { return os.Symlink(shadow, p) },
		"link to a directory outside": func(p string) error { return os.Symlink(filepath.Dir(shadow), p) },
		"link to /dev/zero":           func(p string) error { return os.Symlink("/dev/zero", p) },
		"FIFO":                        func(p string) error { return syscall.Mkfifo(p, 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			r, _ := fakeRegistrar()
			root := t.TempDir()
			srcDir := filepath.Join(t.TempDir(), "tileset")
			writeFile(t, srcDir, fakeIndex, "{}")
			require.NoError(t, mk(filepath.Join(srcDir, "notes.txt")))
			done := make(chan error, 1)
			go func() {
				_, err := r.add(t.Context(), root, srcDir, Options{Domain: exporttask.Domain3D, Copy: true})
				done <- err
			}()
			select {
			case err := <-done:
				require.Error(t, err)
				assert.Contains(t, err.Error(), "only regular files inside the source are copied: notes.txt ")
			case <-time.After(time.Minute):
				t.Fatal("-copy did not end within a minute")
			}
			assert.Empty(t, names(t, root), "nothing left in the catalog")
		})
	}
	// A source that is one file is copied only when it is a regular file:
	// a FIFO is refused without blocking.
	fifo := filepath.Join(t.TempDir(), "dem.tif")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	err := copyTree(t.Context(), fifo, filepath.Join(t.TempDir(), "copy.tif"))
	assert.ErrorContains(t, err, "dem.tif is not a regular file (a FIFO)")
}
