package catalog_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

const rasterID = "8b867544-2dab-43a1-be6e-f23ec83c19b4"

func demoRecord() catalog.Record {
	return catalog.Record{
		ID: rasterID, Domain: exporttask.DomainRaster, Title: "demo",
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MinZoom:   2, MaxZoom: 5,
	}
}

func TestWriteRecordThenRecord(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, catalog.WriteRecord(root, demoRecord(), func(dir string) error {
		return os.WriteFile(filepath.Join(dir, "data.bin"), []byte("x"), 0o644)
	}))
	cat, err := catalog.Open(root)
	require.NoError(t, err)

	// Upper case finds the same record.
	rec, err := cat.Record(context.Background(), strings.ToUpper(rasterID))
	require.NoError(t, err)
	assert.Equal(t, rasterID, rec.ID)
	assert.Equal(t, exporttask.DomainRaster, rec.Domain)
	assert.Equal(t, 2, rec.MinZoom)
	assert.Equal(t, 5, rec.MaxZoom)
	assert.Equal(t, filepath.Join(cat.Root(), rasterID), rec.Location)
	assert.FileExists(t, filepath.Join(rec.Location, "data.bin"))

	// Nothing but the record is left in the root.
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, rasterID, entries[0].Name())

	err = catalog.WriteRecord(root, demoRecord(), nil)
	assert.ErrorIs(t, err, fs.ErrExist)
}

func TestWriteRecordFailureLeavesNothing(t *testing.T) {
	root := t.TempDir()
	boom := errors.New("boom")
	err := catalog.WriteRecord(root, demoRecord(), func(dir string) error {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "half"), []byte("x"), 0o644))
		return boom
	})
	require.ErrorIs(t, err, boom)
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Empty(t, entries)

	bad := demoRecord()
	bad.Domain = "VECTOR"
	err = catalog.WriteRecord(root, bad, nil)
	assert.ErrorContains(t, err, "domain")
}

func TestRecordNotFound(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "secret"), []byte("x"), 0o644))
	cat, err := catalog.Open(root)
	require.NoError(t, err)
	for _, id := range []string{
		"3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60", // a UUID with no record
		"../secret", "secret", "", "8b867544-2dab-43a1-be6e-f23ec83c19b4/../../x",
	} {
		_, err := cat.Record(context.Background(), id)
		assert.ErrorIs(t, err, catalog.ErrNotFound, "id %q", id)
	}
}

func TestRecordBadManifestNamesTheFile(t *testing.T) {
	cases := []struct {
		name, manifest, want string
	}{
		{"not JSON", "{", "malformed record"},
		{"unknown field", `{"id":"` + rasterID + `","domain":"RASTER","bogus":1}`, "bogus"},
		{"other id", `{"id":"3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60","domain":"RASTER",` +
			`"footprint":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}`, "does not match"},
		{"bad domain", `{"id":"` + rasterID + `","domain":"VECTOR"}`, "domain"},
		{"no footprint", `{"id":"` + rasterID + `","domain":"RASTER"}`, "footprint"},
		{"bad levels", `{"id":"` + rasterID + `","domain":"RASTER","minZoom":5,"maxZoom":2,` +
			`"footprint":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}`, "maxZoom"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, rasterID)
			require.NoError(t, os.Mkdir(dir, 0o755))
			path := filepath.Join(dir, catalog.ManifestName)
			require.NoError(t, os.WriteFile(path, []byte(c.manifest), 0o644))
			cat, err := catalog.Open(root)
			require.NoError(t, err)
			_, err = cat.Record(context.Background(), rasterID)
			require.Error(t, err)
			assert.NotErrorIs(t, err, catalog.ErrNotFound)
			assert.ErrorContains(t, err, path)
			assert.ErrorContains(t, err, c.want)
		})
	}
}

func TestOpenMissingRoot(t *testing.T) {
	_, err := catalog.Open(filepath.Join(t.TempDir(), "nope"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestListSortedByIDSkippingOtherEntries(t *testing.T) {
	root := t.TempDir()
	ids := []string{"c0ffee00-3d3d-4d3d-8d3d-0123456789ab", rasterID, "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"}
	for _, id := range ids {
		rec := demoRecord()
		rec.ID = id
		require.NoError(t, catalog.WriteRecord(root, rec, nil))
	}
	// A record being written, a stray file and a directory that is no record.
	require.NoError(t, os.Mkdir(filepath.Join(root, ".building-"+rasterID+"-1"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(root, "old"), 0o755))

	cat, err := catalog.Open(root)
	require.NoError(t, err)
	recs, err := cat.List(t.Context())
	require.NoError(t, err)
	require.Len(t, recs, 3)
	assert.Equal(t, "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60", recs[0].ID)
	assert.Equal(t, rasterID, recs[1].ID)
	assert.Equal(t, "c0ffee00-3d3d-4d3d-8d3d-0123456789ab", recs[2].ID)
	assert.Equal(t, filepath.Join(cat.Root(), rasterID), recs[1].Location)

	// A malformed manifest is an error naming its file; the others are
	// listed.
	bad := filepath.Join(root, rasterID, catalog.ManifestName)
	require.NoError(t, os.WriteFile(bad, []byte("{"), 0o644))
	recs, err = cat.List(t.Context())
	assert.ErrorContains(t, err, bad)
	require.Len(t, recs, 2)
	assert.Equal(t, "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60", recs[0].ID)
	assert.Equal(t, "c0ffee00-3d3d-4d3d-8d3d-0123456789ab", recs[1].ID)
}

func TestListEmpty(t *testing.T) {
	cat, err := catalog.Open(t.TempDir())
	require.NoError(t, err)
	recs, err := cat.List(t.Context())
	require.NoError(t, err)
	assert.Empty(t, recs)
}

func TestRemove(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, catalog.WriteRecord(root, demoRecord(), func(dir string) error {
		return os.WriteFile(filepath.Join(dir, "tiles.gpkg"), []byte("x"), 0o644)
	}))
	cat, err := catalog.Open(root)
	require.NoError(t, err)
	require.NoError(t, cat.Remove(t.Context(), strings.ToUpper(rasterID)))
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Empty(t, entries, "the record and its hidden temporary directory are gone")
	_, err = cat.Record(t.Context(), rasterID)
	assert.ErrorIs(t, err, catalog.ErrNotFound)

	for _, id := range []string{rasterID, "../x", ""} {
		assert.ErrorIs(t, cat.Remove(t.Context(), id), catalog.ErrNotFound, "id %q", id)
	}
	// A directory with a UUID name but no manifest is not a record.
	require.NoError(t, os.Mkdir(filepath.Join(root, rasterID), 0o755))
	assert.ErrorIs(t, cat.Remove(t.Context(), rasterID), catalog.ErrNotFound)
	assert.DirExists(t, filepath.Join(root, rasterID))
}

func TestParseIDAndNewID(t *testing.T) {
	id, err := catalog.ParseID(strings.ToUpper(rasterID))
	require.NoError(t, err)
	assert.Equal(t, rasterID, id)
	for _, bad := range []string{"", "42", rasterID + "0", "8b867544x2dab-43a1-be6e-f23ec83c19b4", "8b867544-2dab-43a1-be6e-f23ec83c19bg"} {
		_, err := catalog.ParseID(bad)
		assert.ErrorContains(t, err, "is not a UUID", "%q", bad)
	}
	seen := map[string]bool{}
	for range 100 {
		id := catalog.NewID()
		canon, err := catalog.ParseID(id)
		require.NoError(t, err)
		assert.Equal(t, canon, id, "lower case")
		assert.Equal(t, byte('4'), id[14])
		assert.Contains(t, "89ab", string(id[19]))
		assert.False(t, seen[id])
		seen[id] = true
	}
}
