package artifacttest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

func testWriteRead(t *testing.T, s artifact.Store) {
	data := content(1, 300_000)
	info := put(t, s, "1/export.gpkg", data)
	checkInfo(t, info, "1/export.gpkg", data)
	assert.Equal(t, digest(data), info.SHA256, "Commit always reports the SHA-256")

	got, opened := get(t, s, "1/export.gpkg")
	equalBytes(t, data, got, "read back what was written")
	checkInfo(t, opened, "1/export.gpkg", data)
}

func testEmpty(t *testing.T, s artifact.Store) {
	info := put(t, s, "1/empty", nil)
	checkInfo(t, info, "1/empty", nil)
	assert.Equal(t, digest(nil), info.SHA256)
	got, opened := get(t, s, "1/empty")
	assert.Empty(t, got)
	checkInfo(t, opened, "1/empty", nil)
	assert.Equal(t, []string{"1/empty"}, keys(t, s, "1/"))
}

// testLarge writes more than two parts of the smallest S3 multipart size
// (5 MiB), in chunks that straddle part boundaries.
func testLarge(t *testing.T, s artifact.Store) {
	data := content(2, 11<<20+3)
	info := put(t, s, "2/big.tif", data)
	checkInfo(t, info, "2/big.tif", data)
	assert.Equal(t, digest(data), info.SHA256)
	got, opened := get(t, s, "2/big.tif")
	equalBytes(t, data, got, "large file read back")
	checkInfo(t, opened, "2/big.tif", data)
}

func testInvisibleBeforeCommit(t *testing.T, s artifact.Store) {
	w, err := s.Create(t.Context(), "3/a.zip")
	require.NoError(t, err)
	defer w.Abort()
	writeChunks(t, w, content(3, 6<<20))

	_, err = s.Open(t.Context(), "3/a.zip")
	assert.ErrorIs(t, err, artifact.ErrNotFound, "open before commit")
	assert.Empty(t, keys(t, s, ""), "list before commit")

	_, err = w.Commit()
	require.NoError(t, err)
	assert.Equal(t, []string{"3/a.zip"}, keys(t, s, ""), "list after commit")
}

func testAbortLeavesNothing(t *testing.T, s artifact.Store) {
	for _, n := range []int{0, 1000, 6 << 20} { // nothing, one small part, more than one part
		w, err := s.Create(t.Context(), "4/aborted")
		require.NoError(t, err)
		writeChunks(t, w, content(4, n))
		require.NoError(t, w.Abort(), "abort after %d bytes", n)
		_, err = w.Commit()
		assert.Error(t, err, "commit after abort")
		_, err = s.Open(t.Context(), "4/aborted")
		assert.ErrorIs(t, err, artifact.ErrNotFound, "open after abort of %d bytes", n)
		assert.Empty(t, keys(t, s, ""), "list after abort of %d bytes", n)
	}

	// An aborted replacement keeps the committed file.
	data := content(5, 2000)
	put(t, s, "4/kept", data)
	w, err := s.Create(t.Context(), "4/kept")
	require.NoError(t, err)
	writeChunks(t, w, content(6, 3000))
	require.NoError(t, w.Abort())
	got, _ := get(t, s, "4/kept")
	equalBytes(t, data, got, "the committed file survives an aborted replacement")
}

func testAbortAfterCommit(t *testing.T, s artifact.Store) {
	data := content(7, 5000)
	w, err := s.Create(t.Context(), "5/x")
	require.NoError(t, err)
	writeChunks(t, w, data)
	_, err = w.Commit()
	require.NoError(t, err)
	assert.NoError(t, w.Abort(), "abort after commit does nothing")
	got, _ := get(t, s, "5/x")
	equalBytes(t, data, got, "abort after commit keeps the file")
}

func testWriteAfterCommit(t *testing.T, s artifact.Store) {
	w, err := s.Create(t.Context(), "6/x")
	require.NoError(t, err)
	_, err = w.Write([]byte("abc"))
	require.NoError(t, err)
	_, err = w.Commit()
	require.NoError(t, err)
	_, err = w.Write([]byte("def"))
	assert.Error(t, err, "write after commit")
	_, err = w.Commit()
	assert.Error(t, err, "second commit")
	got, _ := get(t, s, "6/x")
	assert.Equal(t, "abc", string(got))
}

func testReplace(t *testing.T, s artifact.Store) {
	first, second := content(8, 10_000), content(9, 4_000)
	put(t, s, "7/m.json", first)

	// While the second version is being written, readers get the first.
	w, err := s.Create(t.Context(), "7/m.json")
	require.NoError(t, err)
	defer w.Abort()
	writeChunks(t, w, second)
	got, _ := get(t, s, "7/m.json")
	equalBytes(t, first, got, "the old file until the new one commits")

	info, err := w.Commit()
	require.NoError(t, err)
	checkInfo(t, info, "7/m.json", second)
	got, opened := get(t, s, "7/m.json")
	equalBytes(t, second, got, "the new file after commit")
	checkInfo(t, opened, "7/m.json", second)
	assert.Equal(t, []string{"7/m.json"}, keys(t, s, "7/"), "one file after replacing")
}
