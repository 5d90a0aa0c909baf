package exportserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

// rasterSource writes a small GeoPackage pyramid (levels 0 to 2, table
// "tiles") and returns its path.
func rasterSource(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, raster.WriteDemoSource(dir, catalog.Record{ID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
		Domain:    exporttask.DomainRaster,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MaxZoom:   2}))
	return filepath.Join(dir, raster.SourceName)
}

func TestCatalogAddPrintsTheRecord(t *testing.T) {
	src := rasterSource(t)
	cat := filepath.Join(t.TempDir(), "cat")
	fp := writeGeoJSON(t, `{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[34.2,31.2],[34.8,31.2],[34.8,31.8],[34.2,31.2]]]}}`)
	const id = "0B3C7F1E-5D2A-4C8E-9F61-2A7D4E9B1C05"
	code, out, errOut := runCatalog(t, nil, "add", "-catalog", cat, "-domain", "raster", "-id", id, "-title", "Relief",
		"-footprint", fp, src)
	require.Equal(t, ExitOK, code, errOut)
	assert.Empty(t, errOut)

	oneLineOf(t, out)
	var printed map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &printed))
	keys := make([]string, 0, len(printed))
	for k := range printed {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"id", "domain", "title", "footprint", "minZoom", "maxZoom", "source"}, keys)
	var rec catalog.Record
	require.NoError(t, json.Unmarshal([]byte(out), &rec))
	assert.Equal(t, strings.ToLower(id), rec.ID)
	assert.Equal(t, exporttask.DomainRaster, rec.Domain)
	assert.Equal(t, "Relief", rec.Title)
	assert.Equal(t, exporttask.NewPolygon([]exporttask.Position{{34.2, 31.2}, {34.8, 31.2}, {34.8, 31.8}, {34.2, 31.2}}), rec.Footprint)
	assert.Equal(t, 0, rec.MinZoom)
	assert.Equal(t, 2, rec.MaxZoom)
	require.NotNil(t, rec.Source)
	assert.Equal(t, src, rec.Source.Path)
	assert.Equal(t, "GPKG", rec.Source.Format)
	assert.Equal(t, "tiles", rec.Source.Table)

	// The record is in the catalog, and its source checks out.
	c, err := catalog.Open(cat)
	require.NoError(t, err)
	stored, err := c.Record(t.Context(), id)
	require.NoError(t, err)
	_, err = export.SourcePath(stored, "")
	require.NoError(t, err)

	// The same id again: exit 1, one line, nothing changed.
	before := treeOf(t, cat)
	code, out, errOut = runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", "-id", id, src)
	assert.Equal(t, ExitFailed, code)
	assert.Empty(t, out)
	assert.Contains(t, oneLineOf(t, errOut), "is already in the catalog")
	assert.Equal(t, before, treeOf(t, cat))

	// -replace registers it again under the same id.
	code, out, errOut = runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", "-id", id, "-replace", src)
	require.Equal(t, ExitOK, code, errOut)
	assert.Contains(t, out, `"id":"`+strings.ToLower(id)+`"`)
	assert.Contains(t, out, `"title":"Relief"`, "without -title, the replaced record's title")
	before = treeOf(t, cat)

	// A bad footprint file: exit 1, naming the file and the pointer.
	bad := writeGeoJSON(t, `{"type":"Polygon","coordinates":[[[34,31],[35,31],[35,95],[34,31]]]}`)
	code, _, errOut = runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", "-footprint", bad, src)
	assert.Equal(t, ExitFailed, code)
	assert.Contains(t, oneLineOf(t, errOut), bad+": /coordinates/0/2/1: ")
	assert.Equal(t, before, treeOf(t, cat))
}

func TestCatalogAddCopyThenRemove(t *testing.T) {
	src := rasterSource(t)
	cat := filepath.Join(t.TempDir(), "cat")
	// Flags after the source are read too.
	code, out, errOut := runCatalog(t, nil, "add", "-catalog", cat, src, "-domain", "RASTER", "-copy")
	require.Equal(t, ExitOK, code, errOut)
	var rec catalog.Record
	require.NoError(t, json.Unmarshal([]byte(out), &rec))
	assert.Equal(t, raster.SourceName, rec.Source.Path, "relative to the record's directory")
	assert.NotEmpty(t, rec.Title)
	copied := filepath.Join(cat, rec.ID, raster.SourceName)
	want, err := os.ReadFile(src)
	require.NoError(t, err)
	got, err := os.ReadFile(copied)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	code, _, errOut = runCatalog(t, nil, "remove", "-catalog", cat, rec.ID)
	require.Equal(t, ExitOK, code, errOut)
	assert.NoFileExists(t, copied)
	assert.FileExists(t, src)
}

// TestCatalogAddRefusesARasterThatIsNot: a file that is no GeoPackage is
// refused by the RASTER inspector with one line naming it.
func TestCatalogAddRefusesARasterThatIsNot(t *testing.T) {
	src := filepath.Join(t.TempDir(), "notes.gpkg")
	require.NoError(t, os.WriteFile(src, []byte("not a GeoPackage"), 0o644))
	cat := t.TempDir()
	code, out, errOut := runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", src)
	assert.Equal(t, ExitFailed, code)
	assert.Empty(t, out)
	assert.True(t, strings.HasPrefix(oneLineOf(t, errOut), src+": "), errOut)
	entries, err := os.ReadDir(cat)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestCatalogAddTheSameSourceTwice: registering a source again under
// another id warns, naming the first record; an id that exists is refused
// with a pointer to -replace.
func TestCatalogAddTheSameSourceTwice(t *testing.T) {
	src := rasterSource(t)
	cat := filepath.Join(t.TempDir(), "cat")
	const id = "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05"
	code, _, errOut := runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", "-id", id, src)
	require.Equal(t, ExitOK, code, errOut)
	assert.Empty(t, errOut)

	code, _, errOut = runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", src)
	require.Equal(t, ExitOK, code, errOut)
	assert.Contains(t, errOut, "catalog add: warning: "+src+" is also registered as record "+id)

	code, _, errOut = runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", "-id", id, src)
	assert.Equal(t, ExitFailed, code)
	assert.Contains(t, errOut, "already in the catalog")
	assert.Contains(t, errOut, "give -replace to register the source again under this id")
}
