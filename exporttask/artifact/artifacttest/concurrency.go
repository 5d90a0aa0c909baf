package artifacttest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/parallel"
)

// write is put for other goroutines: it returns errors instead of failing
// the test.
func write(s artifact.Store, t *testing.T, key string, data []byte) (artifact.Info, error) {
	w, err := s.Create(t.Context(), key)
	if err != nil {
		return artifact.Info{}, err
	}
	defer w.Abort()
	for chunk := range slices.Chunk(data, 64<<10) {
		if _, err := w.Write(chunk); err != nil {
			return artifact.Info{}, err
		}
	}
	return w.Commit()
}

func testConcurrentWriters(t *testing.T, s artifact.Store) {
	const writers = 8
	data := make([][]byte, writers)
	for i := range data {
		data[i] = content(byte(50+i), 200_000+i)
	}
	infos := make([]artifact.Info, writers)
	errs := parallel.Run(writers, func(i int) error {
		var err error
		infos[i], err = write(s, t, fmt.Sprintf("50/%d", i), data[i])
		return err
	})
	for i, err := range errs {
		require.NoError(t, err, "writer %d", i)
		checkInfo(t, infos[i], fmt.Sprintf("50/%d", i), data[i])
		assert.Equal(t, digest(data[i]), infos[i].SHA256)
	}
	for i := range writers {
		got, _ := get(t, s, fmt.Sprintf("50/%d", i))
		equalBytes(t, data[i], got, fmt.Sprintf("file of writer %d", i))
	}
	assert.Len(t, keys(t, s, "50/"), writers)
}

// testConcurrentSameKey commits several writes of one key at once: the
// file is then exactly one of them, never a mix.
func testConcurrentSameKey(t *testing.T, s artifact.Store) {
	const writers = 4
	data := make([][]byte, writers)
	for i := range data {
		data[i] = content(byte(60+i), 150_000+1000*i)
	}
	errs := parallel.Run(writers, func(i int) error {
		_, err := write(s, t, "60/same", data[i])
		return err
	})
	for i, err := range errs {
		require.NoError(t, err, "writer %d", i)
	}
	got, info := get(t, s, "60/same")
	found := slices.IndexFunc(data, func(d []byte) bool { return bytes.Equal(d, got) })
	assert.GreaterOrEqual(t, found, 0, "the file is one whole write (got %d bytes)", len(got))
	if found >= 0 {
		checkInfo(t, info, "60/same", data[found])
	}
	assert.Equal(t, []string{"60/same"}, keys(t, s, "60/"))
}
