package raster_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// gdal runs a GDAL tool, skipping the test when it is not installed (or
// failing it when VIEWER_TEST_REQUIRE_GDAL=1).
func gdal(t testing.TB, tool string, args ...string) {
	t.Helper()
	gdaltest.Run(t, gdaltest.Require(t, tool), args...)
}

// The image the pyramids are made from: lon 34–35, lat 31.25–32, square
// pixels of 1/cells degree.
var imageBox = geom.BBox{West: 34, South: 31.25, East: 35, North: 32}

// makeImage writes dir/rgba.tif, an RGBA GeoTIFF in EPSG:4326 over
// imageBox that GDAL colours (gdaldem color-relief) from a synthetic DEM the
// test writes as an ASCII grid. A triangle in the south-east corner is
// nodata, transparent in the image, so the pyramids' coverage is ragged.
func makeImage(t testing.TB, dir string, cells int) string {
	t.Helper()
	w, h := cells, cells*3/4
	var b strings.Builder
	fmt.Fprintf(&b, "ncols %d\nnrows %d\nxllcorner %g\nyllcorner %g\ncellsize %.17g\nNODATA_value -9999\n",
		w, h, imageBox.West, imageBox.South, 1/float64(cells))
	for y := range h {
		for x := range w {
			v := 500 + 400*math.Sin(float64(x)/37)*math.Cos(float64(y)/23) + float64(x)/4
			if x+(h-y) > w+h/3 {
				v = -9999
			}
			fmt.Fprintf(&b, "%d ", int(v))
		}
		b.WriteByte('\n')
	}
	asc := filepath.Join(dir, "dem.asc")
	require.NoError(t, os.WriteFile(asc, []byte(b.String()), 0o644))
	colors := filepath.Join(dir, "colors.txt")
	require.NoError(t, os.WriteFile(colors, []byte("nv 0 0 0 0\n0 20 60 20\n500 200 180 120\n1200 250 250 250\n"), 0o644))
	dem := filepath.Join(dir, "dem.tif")
	gdal(t, "gdal_translate", "-q", "-a_srs", "EPSG:4326", asc, dem)
	out := filepath.Join(dir, "rgba.tif")
	gdal(t, "gdaldem", "color-relief", "-q", "-alpha", dem, colors, out)
	return out
}

// makeGPKG writes dir/name.gpkg from img with GDAL's InspireCRS84Quad grid
// (unless opts name another TILING_SCHEME; table name) and overviews 2 4
// 8, with extra creation options.
func makeGPKG(t testing.TB, dir, name, img string, opts ...string) string {
	t.Helper()
	path := filepath.Join(dir, name+".gpkg")
	args := []string{"-q", "-of", "GPKG"}
	addo := []string{"-q"}
	scheme := "TILING_SCHEME=InspireCRS84Quad"
	for _, o := range opts {
		switch {
		case strings.HasPrefix(o, "TILING_SCHEME="):
			scheme = o
			continue
		case strings.HasPrefix(o, "TILE_FORMAT="): // for the overviews too
			addo = append(addo, "-oo", o)
		}
		args = append(args, "-co", o)
	}
	args = append(args, "-co", scheme)
	gdal(t, "gdal_translate", append(args, img, path)...)
	gdal(t, "gdaladdo", append(addo, path, "2", "4", "8")...)
	return path
}

// makeTiles runs gdal2tiles over img into dir/name at levels 7 to 10 with
// the extra arguments.
func makeTiles(t testing.TB, dir, name, img string, args ...string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	gdal(t, "gdal2tiles.py", append(append([]string{"-q", "-z", "7-10", "--processes=1"}, args...), img, out)...)
	return out
}

// readTable returns the tiles of a GeoPackage's table.
func readTable(t testing.TB, path, table string) map[tileKey][]byte {
	t.Helper()
	rows, err := openGPKG(t, path).Query(`SELECT zoom_level, tile_column, tile_row, tile_data FROM "` + table + `"`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[tileKey][]byte{}
	for rows.Next() {
		var k tileKey
		var b []byte
		require.NoError(t, rows.Scan(&k.z, &k.col, &k.row, &b))
		out[k] = b
	}
	require.NoError(t, rows.Err())
	return out
}

// tileFile matches z/x/y.ext in a tile directory.
var tileFile = regexp.MustCompile(`^(\d+)/(\d+)/(\d+)\.(png|jpg|webp)$`)

// readDir returns the tiles of a gdal2tiles directory keyed on the
// GeoPackage grid (row 0 at the top): TMS rows are flipped, 2^z - 1 - y.
func readDir(t testing.TB, root string, tms bool) map[tileKey][]byte {
	t.Helper()
	out := map[tileKey][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		require.NoError(t, err)
		m := tileFile.FindStringSubmatch(filepath.ToSlash(rel))
		if m == nil {
			return nil
		}
		var k tileKey
		k.z, _ = strconv.ParseInt(m[1], 10, 64)
		k.col, _ = strconv.ParseInt(m[2], 10, 64)
		k.row, _ = strconv.ParseInt(m[3], 10, 64)
		if tms {
			k.row = int64(1)<<k.z - 1 - k.row
		}
		b, err := os.ReadFile(path)
		out[k] = b
		return err
	})
	require.NoError(t, err)
	return out
}

// overlaps reports whether two boxes share area.
func overlaps(a, b geom.BBox) bool {
	return a.West < b.East && b.West < a.East && a.South < b.North && b.South < a.North
}

// levelsOf returns the first and last levels of tiles.
func levelsOf(tiles map[tileKey][]byte) (lo, hi int) {
	lo, hi = math.MaxInt, -1
	for k := range tiles {
		lo, hi = min(lo, int(k.z)), max(hi, int(k.z))
	}
	return lo, hi
}

// checkExports exports rec whole and within a ROI and compares the
// exports tile for tile with the source's tiles src (read by the test
// itself): every exported tile is byte for byte the source tile at the
// same level, column and row, and the exported tiles are those of the
// source meeting the ROI. gdalinfo opens each export.
func checkExports(t *testing.T, rec catalog.Record, src map[tileKey][]byte) {
	t.Helper()
	require.NotEmpty(t, src)
	roiBox := geom.BBox{West: 34.3, South: 31.4, East: 34.6, North: 31.7}
	for _, c := range []struct {
		name string
		roi  *geom.BBox
	}{{"whole", nil}, {"roi", &roiBox}} {
		t.Run(c.name, func(t *testing.T) {
			req := exporttask.CreateRequest{}
			if c.roi != nil {
				req.ROI = roiOf(square(c.roi.West, c.roi.South, c.roi.East, c.roi.North))
			}
			j := job(t, rec, req)
			est, err := raster.New(raster.Options{}).Estimate(context.Background(), j)
			require.NoError(t, err)
			out, arts := exportTo(t, j)
			path := artifactPath(t, out, arts, exporttask.ArtifactGPKG)
			got := readTiles(t, path)

			want := map[tileKey][]byte{}
			var size int64
			for k, b := range src {
				if c.roi == nil || overlaps(tileBounds(k), *c.roi) {
					want[k] = b
					size += int64(len(b))
				}
			}
			assert.Equal(t, len(want), len(got))
			for k, b := range want {
				assert.Equal(t, b, got[k], "tile %v", k)
			}
			for k := range got {
				assert.Contains(t, want, k)
			}
			if c.roi != nil {
				assert.Less(t, len(want), len(src), "the ROI must leave tiles out for the test to mean anything")
			}
			meta := readItem(t, out, arts)
			assert.EqualValues(t, size, meta.Property(t, "tileBytes"), "the metadata counts the source's bytes")
			assert.Greater(t, est.Size, size, "the estimate counts the source's bytes")

			// The large thumbnail is drawn from the tiles: something is opaque.
			f, err := os.Open(artifactPath(t, out, arts, exporttask.ArtifactThumbnailsLarge))
			require.NoError(t, err)
			img, _, err := image.Decode(f)
			f.Close()
			require.NoError(t, err)
			opaque := false
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y && !opaque; y += 4 {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 4 {
					if _, _, _, a := img.At(x, y).RGBA(); a == 0xffff {
						opaque = true
						break
					}
				}
			}
			assert.True(t, opaque, "the thumbnail shows the tiles")

			info := gdaltest.Info(t, path)
			assert.Equal(t, "GPKG", info.DriverShortName)
			assert.Contains(t, info.CoordinateSystem.WKT, `ID["EPSG",4326]`)
		})
	}
}

// inspect inspects src and gives the record an id and a directory.
func inspect(t *testing.T, src catalog.Source) catalog.Record {
	t.Helper()
	rec, err := raster.Inspect(context.Background(), src)
	require.NoError(t, err)
	rec.ID, rec.Location = recordID, t.TempDir()
	return rec
}

// checkRecord checks what Inspect found against the tiles read by the
// test: the levels, and a footprint within the finest level's tiles that
// covers the image's data (trimmed to the declared extent, as documented).
func checkRecord(t *testing.T, rec catalog.Record, src map[tileKey][]byte, path, format, table, index string) {
	t.Helper()
	lo, hi := levelsOf(src)
	assert.Equal(t, lo, rec.MinZoom)
	assert.Equal(t, hi, rec.MaxZoom)
	assert.Equal(t, exporttask.DomainRaster, rec.Domain)
	require.NotNil(t, rec.Source)
	assert.Equal(t, path, rec.Source.Path)
	assert.True(t, filepath.IsAbs(rec.Source.Path))
	assert.Equal(t, format, rec.Source.Format)
	assert.Equal(t, table, rec.Source.Table)
	st, err := os.Stat(filepath.Join(path, index))
	require.NoError(t, err)
	assert.Equal(t, st.Size(), rec.Source.Size)
	assert.True(t, st.ModTime().Equal(rec.Source.ModTime))

	fp, err := export.FromGeometry(rec.Footprint)
	require.NoError(t, err)
	box := fp.BBox()
	pixel := 180 / math.Ldexp(1, hi) / 256
	assert.InDelta(t, imageBox.West, box.West, pixel, "west")
	assert.InDelta(t, imageBox.North, box.North, pixel, "north")
	assert.InDelta(t, imageBox.East, box.East, pixel, "east")
	assert.InDelta(t, imageBox.South, box.South, 180/math.Ldexp(1, hi), "south")
}

// TestGDALSources registers pyramids made by GDAL (GeoPackages with PNG,
// JPEG and WebP tiles, gdal2tiles TMS and XYZ directories) and exports
// them.
func TestGDALSources(t *testing.T) {
	dir := t.TempDir()
	img := makeImage(t, dir, 1024)

	t.Run("GPKG", func(t *testing.T) {
		path := makeGPKG(t, dir, "out", img)
		src := readTable(t, path, "out")
		for _, format := range []string{"GPKG", ""} {
			rec := inspect(t, catalog.Source{Path: path, Format: format})
			checkRecord(t, rec, src, path, "GPKG", "out", "")
		}
		rec := inspect(t, catalog.Source{Path: path, Format: "GPKG", Table: "out"})
		checkExports(t, rec, src)
	})
	for _, tf := range []string{"JPEG", "WEBP"} {
		t.Run("GPKG "+tf, func(t *testing.T) {
			name := "tiles_" + strings.ToLower(tf)
			src := img
			if tf == "JPEG" { // JPEG has no alpha: GDAL would write PNG where tiles are partly clear
				src = filepath.Join(dir, "rgb.tif")
				gdal(t, "gdal_translate", "-q", "-b", "1", "-b", "2", "-b", "3", img, src)
			}
			path := makeGPKG(t, dir, name, src, "TILE_FORMAT="+tf)
			tiles := readTable(t, path, name)
			for _, b := range tiles {
				if tf == "JPEG" {
					require.Equal(t, []byte{0xFF, 0xD8}, b[:2])
				} else {
					require.Equal(t, "WEBP", string(b[8:12]))
				}
			}
			rec := inspect(t, catalog.Source{Path: path})
			checkRecord(t, rec, tiles, path, "GPKG", name, "")
			checkExports(t, rec, tiles)
		})
	}
	t.Run("TMS", func(t *testing.T) {
		path := makeTiles(t, dir, "tms", img, "-p", "geodetic", "--tmscompatible")
		src := readDir(t, path, true)
		rec := inspect(t, catalog.Source{Path: path})
		checkRecord(t, rec, src, path, "TMS", "", raster.TileMapResource)
		checkExports(t, rec, src)
	})
	t.Run("XYZ", func(t *testing.T) {
		path := makeTiles(t, dir, "xyz", img, "-p", "geodetic", "--tmscompatible", "--xyz")
		_, err := os.Stat(filepath.Join(path, raster.TileMapResource))
		require.ErrorIs(t, err, fs.ErrNotExist, "gdal2tiles --xyz writes no tilemapresource.xml")
		src := readDir(t, path, false)
		rec, err := raster.Inspect(context.Background(), catalog.Source{Path: path, Format: "XYZ"})
		require.NoError(t, err)
		rec.ID, rec.Location = recordID, t.TempDir()
		lo, hi := levelsOf(src)
		assert.Equal(t, []int{lo, hi}, []int{rec.MinZoom, rec.MaxZoom})
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, st.Size(), rec.Source.Size, "without tilemapresource.xml the directory is the index")
		assert.True(t, st.ModTime().Equal(rec.Source.ModTime))
		checkExports(t, rec, src)

		// The same tiles as the TMS directory, rows flipped.
		tms := makeTiles(t, dir, "tms2", img, "-p", "geodetic", "--tmscompatible")
		assert.Equal(t, readDir(t, tms, true), src)

		// With a tilemapresource.xml, that file is checked and is the index.
		xml, err := os.ReadFile(filepath.Join(tms, raster.TileMapResource))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(path, raster.TileMapResource), xml, 0o644))
		rec = inspect(t, catalog.Source{Path: path, Format: "XYZ"})
		checkRecord(t, rec, src, path, "XYZ", "", raster.TileMapResource)
		checkExports(t, rec, src)
	})
}

// TestGDALSourceLevelGap exports a GeoPackage with a level missing between
// its first and last (gdaladdo made the overview of factor 4 only).
func TestGDALSourceLevelGap(t *testing.T) {
	dir := t.TempDir()
	img := makeImage(t, dir, 1024)
	path := filepath.Join(dir, "gap.gpkg")
	gdal(t, "gdal_translate", "-q", "-of", "GPKG", "-co", "TILING_SCHEME=InspireCRS84Quad", img, path)
	gdal(t, "gdaladdo", "-q", path, "4")
	src := readTable(t, path, "gap")
	rec := inspect(t, catalog.Source{Path: path})
	lo, hi := levelsOf(src)
	require.Equal(t, hi-2, lo)
	for k := range src {
		require.NotEqual(t, int64(hi-1), k.z, "level %d has no tiles", hi-1)
	}
	assert.Equal(t, lo, rec.MinZoom)
	assert.Equal(t, hi, rec.MaxZoom)
	checkExports(t, rec, src)
}

// TestGDALSourceChangedAfterInspect: an export of a source that changed
// after it was registered fails for good, saying so.
func TestGDALSourceChangedAfterInspect(t *testing.T) {
	dir := t.TempDir()
	img := makeImage(t, dir, 256)
	gpkg := makeGPKG(t, dir, "changed", img)
	tms := makeTiles(t, dir, "tms", img, "-p", "geodetic", "--tmscompatible", "-z", "5-8")
	for _, c := range []struct {
		path, index string
	}{{gpkg, ""}, {tms, raster.TileMapResource}} {
		rec := inspect(t, catalog.Source{Path: c.path})
		j := job(t, rec, exporttask.CreateRequest{})
		_, _ = exportTo(t, j) // exports as registered
		f, err := os.OpenFile(filepath.Join(c.path, c.index), os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.Write([]byte{0})
		require.NoError(t, err)
		require.NoError(t, f.Close())

		out := testout.New(t.TempDir())
		_, err = raster.New(raster.Options{TempDir: t.TempDir()}).Export(context.Background(), j, out)
		var pe *export.PermanentError
		require.ErrorAs(t, err, &pe, c.path)
		assert.Contains(t, pe.Reason, "changed after it was registered")
		assert.Empty(t, dirEntries(t, out.Path))
		_, err = raster.New(raster.Options{}).Estimate(context.Background(), j)
		assert.ErrorAs(t, err, &pe)
	}
}

// TestWriteDemoSourceIsRegistrable: the demo source, registered as a
// GeoPackage with its table "tiles", is what the demo record says and
// exports the same tiles.
func TestWriteDemoSourceIsRegistrable(t *testing.T) {
	legacy := fixture(t)
	path := filepath.Join(legacy.Location, raster.SourceName)
	rec := inspect(t, catalog.Source{Path: path, Format: "GPKG", Table: raster.TilesTable})
	assert.Equal(t, legacy.MinZoom, rec.MinZoom)
	assert.Equal(t, legacy.MaxZoom, rec.MaxZoom)
	fp, err := export.FromGeometry(rec.Footprint)
	require.NoError(t, err)
	assert.Equal(t, geom.BBox{West: 34, South: 31, East: 35, North: 32}, fp.BBox())

	req := exporttask.CreateRequest{ROI: roiOf(square(34.2, 31.3, 34.45, 31.8))}
	out1, arts1 := exportTo(t, job(t, legacy, req))
	out2, arts2 := exportTo(t, job(t, rec, req))
	assert.Equal(t, readTiles(t, artifactPath(t, out1, arts1, exporttask.ArtifactGPKG)),
		readTiles(t, artifactPath(t, out2, arts2, exporttask.ArtifactGPKG)))
}

// refused asserts that Inspect refuses src with a *export.SourceError
// whose one-line message names the file and contains each of want.
func refused(t *testing.T, src catalog.Source, file string, want ...string) {
	t.Helper()
	_, err := raster.Inspect(context.Background(), src)
	require.Error(t, err)
	var se *export.SourceError
	require.ErrorAs(t, err, &se, "%v", err)
	msg := err.Error()
	assert.NotContains(t, msg, "\n")
	assert.True(t, strings.HasPrefix(msg, file+": "), "%q names %s", msg, file)
	for _, w := range want {
		assert.Contains(t, msg, w)
	}
}

// TestInspectRefuses: sources that are not on the grid, or are broken,
// are refused with what to do.
func TestInspectRefuses(t *testing.T) {
	dir := t.TempDir()
	img := makeImage(t, dir, 256)

	t.Run("Web Mercator GeoPackage", func(t *testing.T) {
		path := makeGPKG(t, dir, "mercator", img, "TILING_SCHEME=GoogleMapsCompatible")
		path2 := filepath.Join(dir, "google.gpkg")
		gdal(t, "gdal_translate", "-q", "-of", "GPKG", "-co", "TILING_SCHEME=GoogleMapsCompatible", img, path2)
		for _, p := range []string{path, path2} {
			refused(t, catalog.Source{Path: p}, p, "Web Mercator", "EPSG:3857",
				"gdal_translate -of GPKG -co TILING_SCHEME=InspireCRS84Quad")
		}
	})
	t.Run("gdal2tiles mercator", func(t *testing.T) {
		tms := makeTiles(t, dir, "merc", img, "-p", "mercator", "-z", "6-8")
		refused(t, catalog.Source{Path: tms}, filepath.Join(tms, raster.TileMapResource),
			"Web Mercator", "gdal2tiles.py -p geodetic --tmscompatible")
		xyz := makeTiles(t, dir, "mercxyz", img, "-p", "mercator", "--xyz", "-z", "6-8")
		refused(t, catalog.Source{Path: xyz, Format: "XYZ"}, xyz, "Web Mercator", "gdal2tiles.py -p geodetic --tmscompatible --xyz")
	})
	t.Run("gdal2tiles default geodetic grid", func(t *testing.T) {
		tms := makeTiles(t, dir, "onetile", img, "-p", "geodetic", "-z", "6-8")
		refused(t, catalog.Source{Path: tms}, tms, "one tile at level 0", "--tmscompatible")
		xyz := makeTiles(t, dir, "onetilexyz", img, "-p", "geodetic", "--xyz", "-z", "6-8")
		refused(t, catalog.Source{Path: xyz, Format: "XYZ"}, xyz, "one tile at level 0", "--tmscompatible")
	})
	t.Run("TMS without tilemapresource.xml", func(t *testing.T) {
		xyz := makeTiles(t, dir, "noxml", img, "-p", "geodetic", "--tmscompatible", "--xyz", "-z", "6-7")
		refused(t, catalog.Source{Path: xyz}, xyz, "no tilemapresource.xml", "XYZ")
	})
	t.Run("truncated GeoPackage", func(t *testing.T) {
		path := makeGPKG(t, dir, "whole", img)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, n := range []int{len(b) / 2, 50} {
			cut := filepath.Join(dir, fmt.Sprintf("cut%d.gpkg", n))
			require.NoError(t, os.WriteFile(cut, b[:n], 0o644))
			refused(t, catalog.Source{Path: cut}, cut, "truncated", "copy it again")
		}
		notSQLite := filepath.Join(dir, "text.gpkg")
		require.NoError(t, os.WriteFile(notSQLite, []byte("not a database at all"), 0o644))
		refused(t, catalog.Source{Path: notSQLite}, notSQLite, "not an SQLite database")
	})
	t.Run("several tables", func(t *testing.T) {
		path := makeGPKG(t, dir, "two", img)
		gdal(t, "gdal_translate", "-q", "-of", "GPKG", "-co", "TILING_SCHEME=InspireCRS84Quad",
			"-co", "APPEND_SUBDATASET=YES", "-co", "RASTER_TABLE=second", img, path)
		refused(t, catalog.Source{Path: path}, path, "2 tile tables (second, two)", "-table")
		refused(t, catalog.Source{Path: path, Table: "third"}, path, `no tile table "third"`, "second, two")
		rec := inspect(t, catalog.Source{Path: path, Table: "second"})
		assert.Equal(t, "second", rec.Source.Table)
		out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{}))
		got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
		assert.Equal(t, readTable(t, path, "second"), got)
	})
	t.Run("empty pyramid", func(t *testing.T) {
		path := makeGPKG(t, dir, "empty", img)
		db, err := sql.Open("sqlite", path)
		require.NoError(t, err)
		_, err = db.Exec(`DELETE FROM empty`)
		require.NoError(t, err)
		require.NoError(t, db.Close())
		refused(t, catalog.Source{Path: path}, path, "holds no tiles")

		tms := makeTiles(t, dir, "emptytms", img, "-p", "geodetic", "--tmscompatible", "-z", "6-7")
		for _, z := range []string{"6", "7"} {
			require.NoError(t, os.RemoveAll(filepath.Join(tms, z)))
		}
		refused(t, catalog.Source{Path: tms}, tms, "holds no tiles")
	})
	t.Run("bad tiles", func(t *testing.T) {
		small := image.NewNRGBA(image.Rect(0, 0, 128, 128))
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, small))
		for name, data := range map[string]string{"small": buf.String(), "text": "GIF89a is not accepted"} {
			tms := makeTiles(t, dir, "bad"+name, img, "-p", "geodetic", "--tmscompatible", "-z", "6-7")
			require.NoError(t, filepath.WalkDir(filepath.Join(tms, "7"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".png") {
					err = os.WriteFile(p, []byte(data), 0o644)
				}
				return err
			}))
			want := "128×128 pixels, not 256×256"
			if name == "text" {
				want = "not a PNG, JPEG or WebP image"
			}
			_, err := raster.Inspect(context.Background(), catalog.Source{Path: tms})
			require.Error(t, err)
			assert.Contains(t, err.Error(), want)
			assert.Contains(t, err.Error(), filepath.Join(tms, "7"))
		}
	})
	t.Run("wrong kinds", func(t *testing.T) {
		path := makeGPKG(t, dir, "kind", img)
		refused(t, catalog.Source{Path: path, Format: "TMS"}, path, "not a tile directory")
		refused(t, catalog.Source{Path: dir, Format: "GPKG"}, dir, "not a GeoPackage file")
		refused(t, catalog.Source{Path: path, Format: "MBTiles"}, path, `"MBTiles"`, "GPKG, TMS, XYZ or GTiff")
		missing := filepath.Join(dir, "missing.gpkg")
		refused(t, catalog.Source{Path: missing}, missing, "does not exist")
		tms := makeTiles(t, dir, "kindtms", img, "-p", "geodetic", "--tmscompatible", "-z", "6")
		refused(t, catalog.Source{Path: tms, Table: "out"}, tms, "for a GeoPackage only")
	})
}

// TestSourcePathWithURICharacters: a source whose path holds the
// characters SQLite URIs give a meaning is read where it is.
func TestSourcePathWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "maps #2 ?x=1 100%")
	require.NoError(t, os.Mkdir(dir, 0o755))
	legacy := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32),
		MinZoom: 6, MaxZoom: 7, Location: dir}
	require.NoError(t, raster.WriteDemoSource(dir, legacy))
	path := filepath.Join(dir, raster.SourceName)
	rec := inspect(t, catalog.Source{Path: path})
	assert.Equal(t, path, rec.Source.Path)
	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{}))
	want := readTable(t, path, raster.TilesTable)
	require.NotEmpty(t, want)
	assert.Equal(t, want, readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG)))
	assert.Equal(t, []string{raster.SourceName}, dirEntries(t, dir), "nothing written beside the source")
}
