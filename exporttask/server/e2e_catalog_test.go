package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
	"github.com/openapi-viewer/viewer/exporttask/exportserver"
	"github.com/openapi-viewer/viewer/exporttask/exportserver/exportservertest"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
)

// The end-to-end path of a team's own data: sources made by GDAL,
// registered with the example server's "catalog add" in a working
// directory, exported by the server started in the same directory (both
// use the default catalog directory there), downloaded over HTTP and
// compared with the source.

// e2eKey is the API key of the server the tests start.
const e2eKey = "catalog-e2e-key"

// catalogAdd runs "catalog add ARGS" and returns its exit status, stdout
// and stderr.
func catalogAdd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := exportserver.RunCatalog(t.Context(), append([]string{"add"}, args...), func(string) string { return "" }, &out, &errOut)
	return code, out.String(), errOut.String()
}

// addRecord registers source with "catalog add" and returns the record it
// printed.
func addRecord(t *testing.T, args ...string) catalog.Record {
	t.Helper()
	code, out, errOut := catalogAdd(t, args...)
	require.Equal(t, exportserver.ExitOK, code, "catalog add %v: %s", args, errOut)
	var rec catalog.Record
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rec), out)
	return rec
}

// e2eServer is the example server run in-process.
type e2eServer struct {
	url    string
	client *client.Client
	sink   string // a webhook URL that answers 204
}

// startExampleServer runs the example server in the working directory, with the
// default catalog, until the test ends.
func startExampleServer(t *testing.T) *e2eServer {
	t.Helper()
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(sink.Close)
	url := exportservertest.Start(t, "-addr", "127.0.0.1:0", "-db", ":memory:", "-artifacts", t.TempDir(),
		"-scratch", t.TempDir(), "-keys", e2eKey+"=dev", "-webhook-allow", "127.0.0.0/8")
	c, err := client.New(url, e2eKey)
	require.NoError(t, err)
	return &e2eServer{url: url, client: c, sink: sink.URL + "/hook"}
}

// export creates a task for rec over roi, waits for it to end and returns
// it, with its artifacts downloaded into a directory when it completed.
func (s *e2eServer) export(t *testing.T, rec catalog.Record, roi *exporttask.FeatureCollection) (exporttask.Task, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	task, err := s.client.Create(ctx, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi,
		ArtifactCRS: exporttask.CRS4326, Webhook: []exporttask.Webhook{{URL: s.sink, Events: []exporttask.Event{exporttask.EventCompleted}}}})
	require.NoError(t, err)
	done, err := s.client.Wait(ctx, task.ID, 20*time.Millisecond)
	require.NoError(t, err)
	if done.Status != exporttask.StatusCompleted {
		return done, ""
	}
	dir := t.TempDir()
	for _, a := range done.Artifacts {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
		require.NoError(t, err)
		req.Header.Set("X-Api-Key", e2eKey)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", a.Name, body)
		require.NoError(t, os.WriteFile(filepath.Join(dir, a.Name), body, 0o644))
	}
	return done, dir
}

// gpkgTiles returns the tiles of the GeoPackage's only tile table, by
// "zoom/column/row".
func gpkgTiles(t *testing.T, path string) map[string][]byte {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	var table string
	require.NoError(t, db.QueryRow(`SELECT table_name FROM gpkg_contents WHERE data_type = 'tiles'`).Scan(&table))
	rows, err := db.Query(`SELECT zoom_level, tile_column, tile_row, tile_data FROM "` + strings.ReplaceAll(table, `"`, `""`) + `"`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var z, c, r int
		var data []byte
		require.NoError(t, rows.Scan(&z, &c, &r, &data))
		out[fmt.Sprintf("%d/%d/%d", z, c, r)] = data
	}
	require.NoError(t, rows.Err())
	return out
}

// writeGradientPNG writes a w×h RGB image whose every pixel differs from
// its neighbours, so that every tile made of it is different.
func writeGradientPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: uint8(x), G: uint8(y), B: uint8(x ^ y), A: 255})
		}
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, img))
	require.NoError(t, f.Close())
}

// catalogTree returns every path under the default catalog with its
// content, to show a refused source left it unchanged.
func catalogTree(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.Walk(exportserver.DefaultCatalog, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		v := info.Mode().String() + " " + info.ModTime().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		out[path] = v
		return nil
	}))
	return out
}

func TestCatalogAddThenExportOverHTTP(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	work := t.TempDir()
	t.Chdir(work)
	srcDir := t.TempDir()

	// RASTER: a GeoPackage pyramid on GDAL's InspireCRS84Quad grid.
	writeGradientPNG(t, filepath.Join(srcDir, "relief.png"), 512, 512)
	gpkg := filepath.Join(srcDir, "relief.gpkg")
	gdaltest.Run(t, translate, "-q", "-of", "GPKG", "-a_srs", "EPSG:4326", "-a_ullr", "34", "32", "35", "31",
		"-co", "TILING_SCHEME=InspireCRS84Quad", filepath.Join(srcDir, "relief.png"), gpkg)
	rasterRec := addRecord(t, "-domain", "RASTER", gpkg)
	assert.Equal(t, exporttask.DomainRaster, rasterRec.Domain)
	require.NotNil(t, rasterRec.Source)
	assert.Equal(t, gpkg, rasterRec.Source.Path, "referenced where it is")
	assert.Equal(t, "GPKG", rasterRec.Source.Format)
	assert.Equal(t, "relief", rasterRec.Source.Table, "GDAL names the table after the file")
	assert.Positive(t, rasterRec.MaxZoom)
	assert.NotNil(t, rasterRec.Footprint)

	// A source on the Web Mercator grid is refused, naming the fix, and
	// the catalog is left as it was.
	mercator := filepath.Join(srcDir, "mercator.gpkg")
	gdaltest.Run(t, translate, "-q", "-of", "GPKG", "-a_srs", "EPSG:4326", "-a_ullr", "34", "32", "35", "31",
		"-co", "TILING_SCHEME=GoogleMapsCompatible", filepath.Join(srcDir, "relief.png"), mercator)
	before := catalogTree(t)
	code, out, errOut := catalogAdd(t, "-domain", "RASTER", mercator)
	assert.Equal(t, exportserver.ExitFailed, code)
	assert.Empty(t, out)
	assert.True(t, strings.HasPrefix(errOut, mercator+": "), errOut)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %s", errOut)
	assert.Contains(t, errOut, "InspireCRS84Quad")
	assert.Equal(t, before, catalogTree(t))

	// RASTER: a gdal2tiles TMS directory (rows from the south) on the same
	// grid.
	georef := filepath.Join(srcDir, "relief.tif")
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-a_ullr", "34", "32", "35", "31",
		filepath.Join(srcDir, "relief.png"), georef)
	tmsDir := filepath.Join(srcDir, "tms")
	gdaltest.Run(t, gdaltest.Require(t, "gdal2tiles.py"), "-q", "-p", "geodetic", "--tmscompatible", "-z", "6-8",
		"-w", "none", georef, tmsDir)
	tmsRec := addRecord(t, "-domain", "RASTER", tmsDir)
	require.NotNil(t, tmsRec.Source)
	assert.Equal(t, "TMS", tmsRec.Source.Format)
	assert.Equal(t, 6, tmsRec.MinZoom)
	assert.Equal(t, 8, tmsRec.MaxZoom)

	// DEM: an Int16 GeoTIFF, tiled, Deflate, with a nodata value, made
	// by gdal_translate from an ASCII grid of 100 × 100 pixels of 0.01°.
	asc := filepath.Join(srcDir, "elevation.asc")
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	demTIF := filepath.Join(srcDir, "elevation.tif")
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Int16", "-co", "TILED=YES",
		"-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=32", "-co", "COMPRESS=DEFLATE", asc, demTIF)
	demRec := addRecord(t, "-domain", "DEM", demTIF)
	assert.Equal(t, exporttask.DomainDEM, demRec.Domain)
	assert.InDelta(t, 0.01, demRec.Resolution, 1e-12)
	require.NotNil(t, demRec.Source)
	assert.Equal(t, "GTiff", demRec.Source.Format)

	// A DEM in a CRS the engine does not transform is refused, naming
	// the fix.
	utm := filepath.Join(srcDir, "laea.tif")
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:3035", "-a_ullr", "5700000", "3500000", "5701000", "3499000",
		"-ot", "Int16", asc, utm)
	before = catalogTree(t)
	code, out, errOut = catalogAdd(t, "-domain", "DEM", utm)
	assert.Equal(t, exportserver.ExitFailed, code)
	assert.Empty(t, out)
	assert.True(t, strings.HasPrefix(errOut, utm+": "), errOut)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %s", errOut)
	assert.Contains(t, errOut, "gdalwarp -t_srs EPSG:4326 -r bilinear -dstnodata")
	assert.Equal(t, before, catalogTree(t))

	// 3D: a tileset directory (3D Tiles 1.1, region volumes, glb
	// content), registered with a copy.
	require.NoError(t, tiles3d.WriteDemoSource(srcDir, catalog.Record{ID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
		Domain:    exporttask.Domain3D,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MinZoom:   7, MaxZoom: 8}))
	tilesetDir := filepath.Join(srcDir, tiles3d.SourceDir)
	modelRec := addRecord(t, "-domain", "3D", "-copy", "-title", "City", tilesetDir)
	assert.Equal(t, "City", modelRec.Title)
	require.NotNil(t, modelRec.Source)
	assert.Equal(t, tiles3d.SourceDir, modelRec.Source.Path, "copied into the record")

	s := startExampleServer(t)
	roi := roiBox(34.3, 31.2, 34.7, 31.6)

	t.Run("DEM", func(t *testing.T) {
		task, dir := s.export(t, demRec, roi)
		require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
		got := filepath.Join(dir, artifactOf(t, task, exporttask.ArtifactModel))
		info := gdaltest.Run(t, gdaltest.Require(t, "gdalinfo"), got)
		assert.Contains(t, info, "LAYOUT=COG")
		want := filepath.Join(t.TempDir(), "want.tif")
		gdaltest.Run(t, translate, "-q", "-projwin", "34.3", "31.6", "34.7", "31.2", demTIF, want)
		wantPixels := gdalXYZ(t, want)
		assert.Equal(t, 40*40, strings.Count(wantPixels, "\n"), "the window is 40 × 40 pixels")
		assert.Equal(t, wantPixels, gdalXYZ(t, got), "pixel for pixel, as gdal_translate -projwin cuts")
	})

	t.Run("3D", func(t *testing.T) {
		task, dir := s.export(t, modelRec, nil)
		require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
		got := zipContents(t, filepath.Join(dir, artifactOf(t, task, exporttask.Artifact3DModel)))
		n := 0
		for name, data := range got {
			if filepath.Ext(name) == ".json" {
				continue
			}
			want, err := os.ReadFile(filepath.Join(tilesetDir, name))
			require.NoError(t, err, "%s is a content of the source", name)
			assert.True(t, bytes.Equal(want, data), "%s is copied byte for byte", name)
			n++
		}
		assert.Positive(t, n, "the export holds contents")
	})

	var rasterTask int64
	t.Run("RASTER", func(t *testing.T) {
		task, dir := s.export(t, rasterRec, roi)
		rasterTask = task.ID
		require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
		got := gpkgTiles(t, filepath.Join(dir, artifactOf(t, task, exporttask.ArtifactGPKG)))
		src := gpkgTiles(t, gpkg)
		require.NotEmpty(t, got)
		for key, data := range got {
			require.Contains(t, src, key, "the export holds only the source's tiles")
			assert.True(t, bytes.Equal(src[key], data), "tile %s is copied byte for byte", key)
		}
		// Every source tile that overlaps the ROI is in the export.
		for key := range src {
			var z, c, r int
			_, err := fmt.Sscanf(key, "%d/%d/%d", &z, &c, &r)
			require.NoError(t, err)
			size := 180.0 / float64(int(1)<<z)
			w, n := -180+float64(c)*size, 90-float64(r)*size
			if w < 34.7 && w+size > 34.3 && n > 31.2 && n-size < 31.6 {
				assert.Contains(t, got, key, "tile %s overlaps the ROI", key)
			}
		}
	})

	t.Run("RASTER TMS", func(t *testing.T) {
		task, dir := s.export(t, tmsRec, roi)
		require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
		got := gpkgTiles(t, filepath.Join(dir, artifactOf(t, task, exporttask.ArtifactGPKG)))
		require.NotEmpty(t, got)
		for key, data := range got {
			var z, c, r int
			_, err := fmt.Sscanf(key, "%d/%d/%d", &z, &c, &r)
			require.NoError(t, err)
			// A GeoPackage counts rows from the north, TMS from the south.
			want, err := os.ReadFile(filepath.Join(tmsDir, fmt.Sprint(z), fmt.Sprint(c), fmt.Sprintf("%d.png", (1<<z)-1-r)))
			require.NoError(t, err, "tile %s is a tile of the source", key)
			assert.True(t, bytes.Equal(want, data), "tile %s is copied byte for byte", key)
		}
	})

	t.Run("RASTER source touched", func(t *testing.T) {
		// The same content with another time (a touch, a copy without -p):
		// accepted, and the same export (the dedup key follows the content).
		later := rasterRec.Source.ModTime.Add(time.Hour)
		require.NoError(t, os.Chtimes(gpkg, later, later))
		task, _ := s.export(t, rasterRec, roi)
		require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
		assert.Equal(t, rasterTask, task.ID, "the export made before the touch")
	})

	t.Run("RASTER source changed", func(t *testing.T) {
		db, err := sql.Open("sqlite", gpkg)
		require.NoError(t, err)
		_, err = db.Exec(`UPDATE gpkg_contents SET description = 'other'`)
		require.NoError(t, errors.Join(err, db.Close()))
		_, err = s.client.Create(t.Context(), exporttask.CreateRequest{CatalogRecordID: rasterRec.ID, Domain: rasterRec.Domain,
			ROI: roi, ArtifactCRS: exporttask.CRS4326, Webhook: []exporttask.Webhook{{URL: s.sink, Events: []exporttask.Event{exporttask.EventCompleted}}}})
		var p *exporttask.Problem
		require.ErrorAs(t, err, &p)
		assert.Equal(t, http.StatusBadRequest, p.Status)
		require.Len(t, p.Errors, 1)
		assert.Equal(t, "/catalogRecordID", p.Errors[0].Pointer)
		assert.Contains(t, p.Errors[0].Message, "changed after it was registered")
		assert.Contains(t, p.Errors[0].Message, "register it again with `server catalog add -domain RASTER -id "+
			rasterRec.ID+" -table relief -replace relief.gpkg`", "the command, the path without its server directory")
	})

	t.Run("catalog list finds them", func(t *testing.T) {
		var out, errOut bytes.Buffer
		code := exportserver.RunCatalog(t.Context(), []string{"list"}, func(string) string { return "" }, &out, &errOut)
		require.Equal(t, exportserver.ExitOK, code, errOut.String())
		assert.Contains(t, out.String(), `"id":"`+rasterRec.ID+`"`)
		assert.Equal(t, 7, strings.Count(out.String(), "\n"), "the three demo records and the four added")
		cat, err := catalog.Open(exportserver.DefaultCatalog)
		require.NoError(t, err)
		require.NoError(t, cat.Remove(t.Context(), rasterRec.ID))
		assert.FileExists(t, gpkg, "a referenced source is never removed")
		require.NoError(t, cat.Remove(t.Context(), modelRec.ID))
		assert.NoDirExists(t, filepath.Join(exportserver.DefaultCatalog, modelRec.ID), "the copy goes with the record")
		assert.FileExists(t, filepath.Join(tilesetDir, "tileset.json"))
	})
}

// writeASCIIGrid writes an Esri ASCII grid of w × h pixels of size cell
// whose lower-left corner is (west, south): elevations that differ from
// pixel to pixel, and a nodata (-9999) square.
func writeASCIIGrid(t *testing.T, path string, w, h int, west, south, cell float64) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "ncols %d\nnrows %d\nxllcorner %g\nyllcorner %g\ncellsize %g\nNODATA_value -9999\n", w, h, west, south, cell)
	for r := range h {
		for c := range w {
			v := 100 + 3*c + 7*r
			if r >= 40 && r < 50 && c >= 40 && c < 50 {
				v = -9999
			}
			fmt.Fprintf(&b, "%d ", v)
		}
		b.WriteString("\n")
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
}

// gdalXYZ returns the pixels of a raster as gdal_translate -of XYZ writes
// them: one "x y value" line per pixel.
func gdalXYZ(t *testing.T, path string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "pixels.xyz")
	gdaltest.Run(t, gdaltest.Require(t, "gdal_translate"), "-q", "-of", "XYZ", path, out)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return string(b)
}

// zipContents returns the files of a zip archive by name, without the
// archive's top directory when all its files are in one.
func zipContents(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		rc.Close()
		require.NoError(t, err)
		out[f.Name] = b
	}
	top := ""
	for name := range out {
		dir, _, ok := strings.Cut(name, "/")
		if !ok || (top != "" && dir != top) {
			return out
		}
		top = dir
	}
	trimmed := map[string][]byte{}
	for name, b := range out {
		trimmed[strings.TrimPrefix(name, top+"/")] = b
	}
	return trimmed
}

// requireTilesTools returns node's path and the script that runs
// 3d-tiles-tools (exporttask/export/tiles3d/testdata/tools/build.mjs), or
// skips the test (fails it when VIEWER_TEST_REQUIRE_3DTILES=1, as CI sets).
func requireTilesTools(t *testing.T) (node, script string) {
	t.Helper()
	tools, err := filepath.Abs(filepath.Join("..", "export", "tiles3d", "testdata", "tools"))
	require.NoError(t, err)
	missing := func(why string) {
		if os.Getenv("VIEWER_TEST_REQUIRE_3DTILES") == "1" {
			t.Fatalf("%s and VIEWER_TEST_REQUIRE_3DTILES=1", why)
		}
		t.Skipf("%s (set VIEWER_TEST_REQUIRE_3DTILES=1 to fail instead)", why)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		missing("node not found")
	}
	if _, err := os.Stat(filepath.Join(tools, "node_modules", "3d-tiles-tools", "package.json")); err != nil {
		missing("3d-tiles-tools is not installed (npm ci --prefix exporttask/export/tiles3d/testdata/tools --ignore-scripts)")
	}
	return node, filepath.Join(tools, "build.mjs")
}

// squareB3dmSteps returns the 3d-tiles-tools steps (see build.mjs) that
// make a 3D Tiles 1.0 tileset in dir: two flat squares, 100 m a side and
// 300 m apart, as glb files turned into b3dm by glbToB3dm, a tileset of
// box volumes by createTilesetJson (its root transform placing them at
// lon, lat), and upgrade to 1.0.
func squareB3dmSteps(t *testing.T, dir string, lon, lat float64) []map[string]any {
	t.Helper()
	work := t.TempDir()
	var steps []map[string]any
	for i, east := range []float32{0, 300} {
		m := &glb.Mesh{
			Positions: []float32{east, 0, 0, east + 100, 0, 0, east + 100, 0, -100, east, 0, -100},
			Normals:   []float32{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0},
			Indices:   []uint32{0, 1, 2, 0, 2, 3},
			Color:     [4]float32{0.6, 0.5, 0.4, 1},
		}
		b, err := glb.Encode(m)
		require.NoError(t, err)
		g := filepath.Join(work, fmt.Sprintf("square%d.glb", i))
		require.NoError(t, os.WriteFile(g, b, 0o644))
		steps = append(steps, map[string]any{"cmd": "glbToB3dm", "input": g, "output": filepath.Join(work, "b3dm", fmt.Sprintf("square%d.b3dm", i))})
	}
	return append(steps,
		map[string]any{"cmd": "createTilesetJson", "input": filepath.Join(work, "b3dm"), "output": filepath.Join(work, "b3dm", "tileset.json"),
			"position": []float64{lon, lat, 100}},
		map[string]any{"cmd": "upgrade", "input": filepath.Join(work, "b3dm", "tileset.json"), "output": dir})
}

// TestCatalogAddToolsTilesetsThenExport: 3D Tiles 1.0 tilesets made by
// 3d-tiles-tools (b3dm content, box volumes, a root transform; and one
// that holds the others as external tilesets) are registered with catalog
// add, exported over HTTP, and their contents come back byte for byte.
func TestCatalogAddToolsTilesetsThenExport(t *testing.T) {
	node, script := requireTilesTools(t)
	work := t.TempDir()
	t.Chdir(work)
	src := t.TempDir()
	city, far, merged := filepath.Join(src, "city"), filepath.Join(src, "far"), filepath.Join(src, "merged")
	steps := append(squareB3dmSteps(t, city, 34.5, 31.5), squareB3dmSteps(t, far, 34.6, 31.6)...)
	steps = append(steps, map[string]any{"cmd": "merge", "inputs": []string{city, far}, "output": merged})
	js, err := json.Marshal(steps)
	require.NoError(t, err)
	stepsFile := filepath.Join(t.TempDir(), "steps.json")
	require.NoError(t, os.WriteFile(stepsFile, js, 0o644))
	out, err := exec.Command(node, script, stepsFile).CombinedOutput()
	require.NoError(t, err, "3d-tiles-tools: %s", out)

	cityRec := addRecord(t, "-domain", "3D", city)
	mergedRec := addRecord(t, "-domain", "3D", merged)
	for _, rec := range []catalog.Record{cityRec, mergedRec} {
		require.NotNil(t, rec.Source)
		assert.Equal(t, "3DTILES", rec.Source.Format)
		require.NotNil(t, rec.Footprint)
	}
	s := startExampleServer(t)
	for _, c := range []struct {
		name string
		rec  catalog.Record
		dir  string
		n    int // contents expected
	}{{"b3dm and box volumes", cityRec, city, 2}, {"external tilesets", mergedRec, merged, 4}} {
		if c.name == "b3dm and box volumes" {
			b, err := os.ReadFile(filepath.Join(city, "tileset.json"))
			require.NoError(t, err)
			var ts struct {
				Asset struct {
					Version string `json:"version"`
				} `json:"asset"`
			}
			require.NoError(t, json.Unmarshal(b, &ts))
			require.Equal(t, "1.0", ts.Asset.Version, "upgrade wrote 3D Tiles 1.0")
		}
		t.Run(c.name, func(t *testing.T) {
			task, dir := s.export(t, c.rec, nil)
			require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
			got := zipContents(t, filepath.Join(dir, artifactOf(t, task, exporttask.Artifact3DModel)))
			n := 0
			for name, data := range got {
				if filepath.Ext(name) != ".b3dm" {
					continue
				}
				want, err := os.ReadFile(filepath.Join(c.dir, name))
				require.NoError(t, err, "%s is a content of the source", name)
				assert.True(t, bytes.Equal(want, data), "%s is copied byte for byte", name)
				n++
			}
			assert.Equal(t, c.n, n, "every content of the whole tileset")
			type tileset struct {
				Asset map[string]any `json:"asset"`
			}
			var exported, source tileset
			require.Contains(t, got, "tileset.json")
			require.NoError(t, json.Unmarshal(got["tileset.json"], &exported))
			b, err := os.ReadFile(filepath.Join(c.dir, "tileset.json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &source))
			assert.Equal(t, source.Asset, exported.Asset, "the source's asset (version) is kept")
		})
	}
}
