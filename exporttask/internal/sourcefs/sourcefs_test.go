//go:build unix

package sourcefs_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// hostileDir writes a source directory holding a good file, a link to it,
// and the hostile forms: a link to a secret file outside, a link to
// /dev/zero, a FIFO, a sparse file of 6 GiB and a directory.
func hostileDir(t *testing.T) (dir, secret string) {
	t.Helper()
	outside := t.TempDir()
	secret = filepath.Join(outside, "shadow")
	require.NoError(t, os.WriteFile(secret, []byte("root:secret-hash:19000::::::\n"), 0o600))
	dir = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "good.png"), []byte("good"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.Symlink("../good.png", filepath.Join(dir, "sub", "inside.png")))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "shadow.png")))
	require.NoError(t, os.Symlink("../"+filepath.Base(outside)+"/shadow", filepath.Join(dir, "relative.png")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.png")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo.png"), 0o644))
	f, err := os.Create(filepath.Join(dir, "huge.png"))
	require.NoError(t, err)
	require.NoError(t, f.Truncate(6<<30))
	require.NoError(t, f.Close())
	return dir, secret
}

func TestRootRefusesWhatIsNotARegularFileInside(t *testing.T) {
	dir, _ := hostileDir(t)
	r, err := sourcefs.OpenRoot(dir)
	require.NoError(t, err)
	defer r.Close()

	b, err := r.ReadFile("good.png", 100)
	require.NoError(t, err)
	assert.Equal(t, "good", string(b))
	b, err = r.ReadFile("sub/inside.png", 100)
	require.NoError(t, err, "a link that stays inside is followed")
	assert.Equal(t, "good", string(b))

	for name, want := range map[string]error{
		"shadow.png":   sourcefs.ErrOutside,
		"relative.png": sourcefs.ErrOutside,
		"zero.png":     sourcefs.ErrOutside,
		"fifo.png":     sourcefs.ErrNotRegular,
		"sub":          sourcefs.ErrNotRegular,
		"huge.png":     sourcefs.ErrTooLarge,
		"../x.png":     sourcefs.ErrOutside,
	} {
		_, err := r.ReadFile(name, 1<<20)
		require.ErrorIs(t, err, want, name)
		assert.NotContains(t, err.Error(), dir, "errors name files inside the source only")
		assert.True(t, strings.HasPrefix(err.Error(), name+" "), err.Error())
		if name != "huge.png" {
			_, _, err = r.Open(name)
			assert.ErrorIs(t, err, want, name)
		}
	}
	_, err = r.StatFile("fifo.png")
	assert.ErrorIs(t, err, sourcefs.ErrNotRegular)
	_, err = r.StatFile("shadow.png")
	assert.ErrorIs(t, err, sourcefs.ErrOutside)
	st, err := r.StatFile("sub/inside.png")
	require.NoError(t, err)
	assert.EqualValues(t, 4, st.Size())

	entries, err := r.ReadDir(".")
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"fifo.png", "good.png", "huge.png", "relative.png", "shadow.png", "sub", "zero.png"}, names)
	_, err = r.ReadDir("shadow.png/..")
	assert.Error(t, err)
}

func TestOpenFile(t *testing.T) {
	dir, _ := hostileDir(t)
	f, st, err := sourcefs.OpenFile(filepath.Join(dir, "good.png"))
	require.NoError(t, err)
	f.Close()
	assert.EqualValues(t, 4, st.Size())
	for name, want := range map[string]error{
		"shadow.png": sourcefs.ErrOutside,
		"fifo.png":   sourcefs.ErrNotRegular,
		"zero.png":   sourcefs.ErrOutside,
	} {
		_, _, err := sourcefs.OpenFile(filepath.Join(dir, name))
		assert.ErrorIs(t, err, want, name)
	}
	_, _, err = sourcefs.OpenFile(filepath.Join(dir, "missing.tif"))
	assert.True(t, errors.Is(err, os.ErrNotExist))
	assert.Equal(t, "missing.tif does not exist", err.Error())
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a"), []byte("12345678"), 0o644))
	r, err := sourcefs.OpenRoot(dir)
	require.NoError(t, err)
	defer r.Close()
	_, err = r.ReadFile("a", 7)
	require.ErrorIs(t, err, sourcefs.ErrTooLarge)
	assert.Contains(t, err.Error(), "8 bytes, the limit is 7")
	b, err := r.ReadFile("a", 8)
	require.NoError(t, err)
	assert.Equal(t, "12345678", string(b))
}
