package artifacttest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

func testList(t *testing.T, s artifact.Store) {
	files := map[string][]byte{
		"20/b.json":      content(20, 10),
		"20/a.gpkg":      content(21, 2000),
		"20/sub/c":       content(22, 30),
		"20.5/d":         content(23, 1),
		"200/e":          content(24, 5),
		"21/f":           content(25, 0),
		"2/g":            content(26, 7),
		"20/a.gpkg.meta": content(27, 3),
	}
	for k, v := range files {
		put(t, s, k, v)
	}
	infos, err := s.List(t.Context(), "20/")
	require.NoError(t, err)
	var got []string
	for _, info := range infos {
		got = append(got, info.Key)
		checkInfo(t, info, info.Key, files[info.Key])
	}
	assert.Equal(t, []string{"20/a.gpkg", "20/a.gpkg.meta", "20/b.json", "20/sub/c"}, got, "task prefix, in key order")

	assert.Equal(t, []string{"2/g", "20.5/d", "20/a.gpkg", "20/a.gpkg.meta", "20/b.json", "20/sub/c", "200/e", "21/f"}, keys(t, s, ""), "everything, in key order")
	assert.Equal(t, []string{"20.5/d", "20/a.gpkg", "20/a.gpkg.meta", "20/b.json", "20/sub/c", "200/e"}, keys(t, s, "20"), "a prefix that is not a directory")
	assert.Equal(t, []string{"20/a.gpkg", "20/a.gpkg.meta"}, keys(t, s, "20/a"), "part of a name")
	assert.Equal(t, []string{"20/a.gpkg", "20/a.gpkg.meta"}, keys(t, s, "20/a.gpkg"), "a whole name is a prefix too")
	assert.Equal(t, []string{"20/sub/c"}, keys(t, s, "20/sub/"))
	assert.Empty(t, keys(t, s, "3"))
}

func testDeletePrefix(t *testing.T, s artifact.Store) {
	for _, k := range []string{"30/a", "30/b/c", "300/a", "31/a", "30x/a"} {
		put(t, s, k, content(30, 100))
	}
	require.NoError(t, s.DeletePrefix(t.Context(), "30/"))
	assert.Equal(t, []string{"300/a", "30x/a", "31/a"}, keys(t, s, ""), "only the task's files go")
	_, err := s.Open(t.Context(), "30/a")
	assert.ErrorIs(t, err, artifact.ErrNotFound)

	// The task's prefix can be used again.
	put(t, s, "30/a", []byte("again"))
	got, _ := get(t, s, "30/a")
	assert.Equal(t, "again", string(got))

	require.NoError(t, s.DeletePrefix(t.Context(), "30"))
	assert.Equal(t, []string{"31/a"}, keys(t, s, ""), "a prefix that is not a directory")

	err = s.DeletePrefix(t.Context(), "")
	assert.ErrorIs(t, err, artifact.ErrKey, "the empty prefix is refused")
	assert.Equal(t, []string{"31/a"}, keys(t, s, ""), "the refused delete removed nothing")
}

// testDeletePrefixUncommitted deletes a task's files while one is being
// written (an export aborted mid-way): the write's Commit fails. The file
// is small, so that no part of it is on its way to a server while the
// prefix is deleted (Versity Gateway 1.8.0 lets a part that lands after
// the abort bring its upload back).
func testDeletePrefixUncommitted(t *testing.T, s artifact.Store) {
	w, err := s.Create(t.Context(), "32/late")
	require.NoError(t, err)
	writeChunks(t, w, content(32, 1000))
	require.NoError(t, s.DeletePrefix(t.Context(), "32/"))
	_, _ = w.Write(content(33, 100)) // may already fail: the write is cancelled
	_, err = w.Commit()
	assert.Error(t, err, "commit after the prefix was deleted")
	assert.NoError(t, w.Abort())
	assert.Empty(t, keys(t, s, ""), "nothing stored")
}
