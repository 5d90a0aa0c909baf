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

func demoRecord() exporttask.Record {
	return exporttask.Record{
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
		assert.ErrorIs(t, err, exporttask.ErrRecordNotFound, "id %q", id)
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
			assert.NotErrorIs(t, err, exporttask.ErrRecordNotFound)
			assert.ErrorContains(t, err, path)
			assert.ErrorContains(t, err, c.want)
		})
	}
}

func TestOpenMissingRoot(t *testing.T) {
	_, err := catalog.Open(filepath.Join(t.TempDir(), "nope"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
