package dem

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// terrainGrid writes an Esri ASCII grid of w×h pixels of res degrees with
// its top-left corner at (west, north): smooth hills with a ridge of steps,
// and nodata at scattered pixels when nodata is not "". GDAL warps it to
// the CRS under test.
func terrainGrid(t *testing.T, west, north, res float64, w, h int, nodata string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "ncols %d\nnrows %d\nxllcorner %.12g\nyllcorner %.12g\ncellsize %.12g\n", w, h, west, north-float64(h)*res, res)
	if nodata != "" {
		fmt.Fprintf(&b, "NODATA_value %s\n", nodata)
	}
	for y := range h {
		for x := range w {
			if x > 0 {
				b.WriteByte(' ')
			}
			if nodata != "" && (x*7+y*11)%97 == 0 {
				b.WriteString(nodata)
				continue
			}
			v := 600 + 350*math.Sin(float64(x)/23)*math.Cos(float64(y)/31) + float64((x+2*y)%40)*2.5
			fmt.Fprintf(&b, "%.3f", v)
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "terrain.asc")
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

// warpCase is a source made by gdalwarp -t_srs of a terrain grid.
type warpCase struct {
	name       string
	epsg       int
	west       float64 // the terrain grid's corner, degrees
	north      float64
	typ        string // GDAL type
	nodata     string // the source's nodata ("" for none)
	resampling Resampling
}

// projectedSource returns the source of c: the terrain grid (300×240
// pixels of 0.0009°, ≈ 100 m) warped by GDAL to c.epsg, tiled and
// compressed, with c.nodata as its nodata (the corners the warp leaves
// empty are nodata too) or without one.
func projectedSource(t *testing.T, c warpCase) string {
	t.Helper()
	grid := terrainGrid(t, c.west, c.north, 0.0009, 300, 240, c.nodata)
	out := filepath.Join(t.TempDir(), "src.tif")
	args := []string{"-q", "-s_srs", "EPSG:4326", "-t_srs", fmt.Sprintf("EPSG:%d", c.epsg), "-r", "bilinear",
		"-ot", c.typ, "-co", "TILED=YES", "-co", "BLOCKXSIZE=128", "-co", "BLOCKYSIZE=128", "-co", "COMPRESS=DEFLATE"}
	if c.nodata != "" {
		args = append(args, "-dstnodata", c.nodata)
	}
	gdalRun(t, "gdalwarp", append(args, grid, out)...)
	return out
}

// samplesOf reads a GeoTIFF's first band as float64 with GDAL.
func samplesOf(t *testing.T, path, typ string) []float64 {
	t.Helper()
	raw := rawSamples(t, path, "-ot", "Float64")
	v := make([]float64, len(raw)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return v
}

// TestWarpAgainstGDAL exports sources in projected CRSs and compares the
// export with gdalwarp -t_srs EPSG:4326 -te … -tr … -r bilinear|near -et 0
// over the export's own grid: the grid is on the one gdalwarp suggests for
// the whole source; nearest samples are identical, bilinear ones within
// 1e-3 of the source's range; nodata is identical; pixels outside the ROI
// are nodata.
func TestWarpAgainstGDAL(t *testing.T) {
	cases := []warpCase{
		{name: "UTM36N-Int16-bilinear", epsg: 32636, west: 33.2, north: 31.6, typ: "Int16", nodata: "-32768", resampling: Bilinear},
		{name: "UTM36N-Float32-bilinear", epsg: 32636, west: 33.2, north: 31.6, typ: "Float32", nodata: "-32768", resampling: Bilinear},
		{name: "UTM36N-Int16-nearest", epsg: 32636, west: 33.2, north: 31.6, typ: "Int16", nodata: "-32768", resampling: Nearest},
		{name: "UTM36S-Float32-bilinear", epsg: 32736, west: 34.1, north: -12.3, typ: "Float32", nodata: "-9999", resampling: Bilinear},
		{name: "UTM36S-Float32-nearest", epsg: 32736, west: 34.1, north: -12.3, typ: "Float32", nodata: "-9999", resampling: Nearest},
		{name: "WebMercator-Float32-nodata-free-bilinear", epsg: 3857, west: 5.1, north: 46.3, typ: "Float32", resampling: Bilinear},
		{name: "WebMercator-Int16-nodata-free-nearest", epsg: 3857, west: 5.1, north: 46.3, typ: "Int16", resampling: Nearest},
		{name: "IsraeliTM-Int16-bilinear", epsg: 2039, west: 34.9, north: 31.9, typ: "Int16", nodata: "-32768", resampling: Bilinear},
		{name: "IsraeliTM-Float32-nearest", epsg: 2039, west: 34.9, north: 31.9, typ: "Float32", nodata: "-9999", resampling: Nearest},
		{name: "Lambert93-Float32-bilinear", epsg: 2154, west: 2.5, north: 46.8, typ: "Float32", nodata: "-9999", resampling: Bilinear},
		{name: "ETRS89-geographic-Int16-bilinear", epsg: 4258, west: 10.1, north: 50.3, typ: "Int16", nodata: "-32768", resampling: Bilinear},
		{name: "Lambert93-Int16-nearest", epsg: 2154, west: 2.5, north: 46.8, typ: "Int16", nodata: "-32768", resampling: Nearest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checkWarp(t, c, projectedSource(t, c))
		})
	}
}

// checkWarp registers src, exports it over a rectangle inside its
// footprint with c's resampling, and compares the export with GDAL's.
func checkWarp(t *testing.T, c warpCase, src string) {
	t.Helper()
	rec, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	rec.ID = demoID
	rec.Location = t.TempDir()
	fp, err := export.FromGeometry(rec.Footprint)
	require.NoError(t, err)
	box := fp.BBox()
	west, south, east, north := box.West, box.South, box.East, box.North
	// A rectangle over most of the footprint, its edges inside pixels,
	// reaching the nodata corners the warp to the projected CRS left.
	roi := jobtest.Rect(west+0.03*(east-west)+1.3e-6, south+0.05*(north-south)+0.7e-6,
		east-0.04*(east-west)-0.9e-6, north-0.02*(north-south)-1.1e-6)
	j := job(t, rec, roi)
	j = jobtest.WithParameters(t, j, map[string]any{ParamResampling: string(c.resampling)})

	pl, err := New(Options{}).plan(j, t.TempDir())
	require.NoError(t, err)
	ks, err := pl.warp.w.chunkKernels(c.resampling, 0)
	require.NoError(t, err)
	t.Logf("first chunk's scales %v %v (2×2 bilinear %v); source window %+v", ks[0].xScale, ks[0].yScale, ks[0].four, pl.win)
	pl.close()
	dir := t.TempDir()
	arts, err := New(Options{TempDir: t.TempDir()}).Export(context.Background(), j, testout.New(dir))
	require.NoError(t, err)
	ours := filepath.Join(dir, arts[0].Name)
	d := infoOf(t, ours)
	require.Len(t, d.Bands, 1)
	require.NotNil(t, d.Bands[0].NoDataValue)
	nd := *d.Bands[0].NoDataValue
	if c.typ == "Float32" {
		nd = float64(float32(nd))
	}
	gt := d.GeoTransform
	w, h := d.Size[0], d.Size[1]
	res := gt[1]
	assert.Equal(t, res, -gt[5], "square pixels")

	// The grid is gdalwarp's for the whole source.
	vrt := filepath.Join(t.TempDir(), "full.vrt")
	gdalRun(t, "gdalwarp", "-q", "-t_srs", "EPSG:4326", "-of", "VRT", src, vrt)
	full := infoOf(t, vrt)
	assert.InEpsilon(t, full.GeoTransform[1], res, 1e-12, "pixel size")
	col := (gt[0] - full.GeoTransform[0]) / res
	row := (full.GeoTransform[3] - gt[3]) / res
	assert.InDelta(t, math.Round(col), col, 1e-6, "west edge on gdalwarp's grid")
	assert.InDelta(t, math.Round(row), row, 1e-6, "north edge on gdalwarp's grid")

	// GDAL's warp of the same window.
	ref := filepath.Join(t.TempDir(), "ref.tif")
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	args := []string{"-q", "-t_srs", "EPSG:4326",
		"-te", f(gt[0]), f(gt[3] - float64(h)*res), f(gt[0] + float64(w)*res), f(gt[3]),
		"-tr", f(res), f(res), "-r", c.resampling.gdalResampling(), "-et", "0",
		"-dstnodata", f(nd), "-of", "COG", src, ref}
	t.Logf("gdalwarp %s", strings.Join(args, " "))
	gdalRun(t, "gdalwarp", args...)
	rd := infoOf(t, ref)
	require.Equal(t, d.Size, rd.Size, "GDAL's window has the export's size")

	have := samplesOf(t, ours, c.typ)
	want := samplesOf(t, ref, c.typ)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range samplesOf(t, src, c.typ) {
		if v != v || (c.nodata != "" && strconv.FormatFloat(v, 'g', -1, 64) == c.nodata) {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	tol := 1e-3 * (hi - lo)
	var inside, valid, nodataDiff, valueDiff, outsideData int
	worst := 0.0
	for y := range h {
		lat := gt[3] + (float64(y)+0.5)*gt[5]
		for x := range w {
			lon := gt[0] + (float64(x)+0.5)*gt[1]
			i := y*w + x
			if !j.Contains(lon, lat) {
				if have[i] != nd {
					outsideData++
				}
				continue
			}
			inside++
			hn, wn := have[i] == nd, want[i] == nd
			if hn != wn {
				nodataDiff++
				if nodataDiff <= 5 {
					t.Logf("nodata differs at (%d, %d): ours %g, GDAL %g", x, y, have[i], want[i])
				}
				continue
			}
			if hn {
				continue
			}
			valid++
			diff := math.Abs(have[i] - want[i])
			worst = math.Max(worst, diff)
			if (c.resampling == Nearest && diff != 0) || diff > tol {
				valueDiff++
				if valueDiff <= 5 {
					t.Logf("value differs at (%d, %d): ours %g, GDAL %g", x, y, have[i], want[i])
				}
			}
		}
	}
	t.Logf("%d×%d pixels, %d inside the ROI, %d with data; largest difference %g (tolerance %g)", w, h, inside, valid, worst, tol)
	assert.Greater(t, valid, inside/2, "most pixels inside the ROI have data")
	assert.Zero(t, outsideData, "pixels outside the ROI are nodata")
	assert.Zero(t, nodataDiff, "nodata where GDAL has nodata")
	assert.Zero(t, valueDiff, "values as GDAL's")
}
