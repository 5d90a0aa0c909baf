package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/exportserver/exportservertest"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestRunDownloadsEveryFile runs the example against a test server, as the
// quick start in docs/exporttask.md does against the reference server.
func TestRunDownloadsEveryFile(t *testing.T) {
	srv := exporttasktest.NewServer(t)
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-url", srv.URL, "-key", srv.Key, "-out", dir}, &out, io.Discard))
	assert.Contains(t, out.String(), "task 1 PENDING")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	for _, e := range entries {
		assert.Contains(t, out.String(), filepath.Join(dir, e.Name())+" (")
		assert.NotContains(t, e.Name(), ".part")
	}
}

func TestRunNeedsAKey(t *testing.T) {
	var errOut bytes.Buffer
	err := run(t.Context(), nil, io.Discard, &errOut)
	assert.ErrorContains(t, err, "-key is required")
}

// TestRunExportsEachDomain runs the example against the example server
// (real exports of the demo catalog) once per domain: with the defaults,
// with -record and an -roi file, and with -roi as a bare Polygon; each
// downloads its product (GeoPackage, GeoTIFF, 3D Tiles zip) into -out.
func TestRunExportsEachDomain(t *testing.T) {
	dir := t.TempDir()
	const key = "client-example-key-0123456789"
	url := exportservertest.Start(t, "-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "tasks.db"),
		"-catalog", filepath.Join(dir, "catalog"), "-keys", key+"=acme")
	feature := filepath.Join(dir, "feature.geojson")
	require.NoError(t, os.WriteFile(feature, []byte(`{"type":"Feature","properties":null,"geometry":{"type":"Polygon",`+
		`"coordinates":[[[34.5,31.5],[34.52,31.5],[34.52,31.52],[34.5,31.52],[34.5,31.5]]]}}`), 0o644))
	polygon := filepath.Join(dir, "polygon.geojson")
	require.NoError(t, os.WriteFile(polygon, []byte(`{"type":"Polygon",`+
		`"coordinates":[[[34.52,31.47],[34.53,31.47],[34.53,31.48],[34.52,31.48],[34.52,31.47]]]}`), 0o644))
	for _, tc := range []struct {
		args []string
		want string // the product's file name
	}{
		{[]string{"-domain", "raster"}, demo.RasterID + ".gpkg"},
		{[]string{"-domain", "DEM", "-record", demo.DEMID, "-roi", feature}, demo.DEMID + ".tif"},
		{[]string{"-domain", "3D", "-roi", polygon}, demo.Tiles3DID + ".zip"},
	} {
		out := filepath.Join(dir, "out-"+tc.want)
		var stdout, stderr bytes.Buffer
		args := append([]string{"-url", url, "-key", key, "-out", out}, tc.args...)
		require.NoError(t, run(t.Context(), args, &stdout, &stderr), "%v: %s", tc.args, stderr.String())
		info, err := os.Stat(filepath.Join(out, tc.want))
		require.NoError(t, err, "%v: %s", tc.args, stdout.String())
		assert.Positive(t, info.Size())
	}
}

func TestReadROIRefusesOtherGeoJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "point.geojson")
	require.NoError(t, os.WriteFile(path, []byte(`{"type":"Point","coordinates":[34,31]}`), 0o644))
	_, err := readROI(path)
	assert.ErrorContains(t, err, `got type "Point"`)
}
