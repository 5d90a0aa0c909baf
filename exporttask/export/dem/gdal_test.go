package dem

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// The GDAL-made test sources are 300×200 pixels of 0.001° from (34.1,
// 31.4) to (34.4, 31.2); the first srcCollar columns are nodata, so the
// valid pixels start at 34.1 + srcCollar·0.001.
const (
	srcWidth, srcHeight = 300, 200
	srcWest, srcNorth   = 34.1, 31.4
	srcRes              = 0.001
	srcCollar           = 7
)

// gdalRun runs a GDAL tool (skipping or failing the test when it is
// missing, as gdaltest.Require says) and returns its output.
func gdalRun(t *testing.T, tool string, args ...string) string {
	t.Helper()
	return gdaltest.Run(t, gdaltest.Require(t, tool), args...)
}

// heightsGrid writes an Esri ASCII grid of test heights for type typ (a
// GDAL type name) and returns its path; GDAL turns it into the sources.
// Heights fit Int8 (shifted up for unsigned types) and have fractions for
// floats; nodata fills the collar and some scattered pixels when nodata is
// not "".
func heightsGrid(t *testing.T, typ, nodata string) string {
	t.Helper()
	unsigned := strings.HasPrefix(typ, "U") || typ == "Byte"
	var b strings.Builder
	fmt.Fprintf(&b, "ncols %d\nnrows %d\nxllcorner %g\nyllcorner %g\ncellsize %g\n",
		srcWidth, srcHeight, srcWest, srcNorth-srcHeight*srcRes, srcRes)
	if nodata != "" {
		fmt.Fprintf(&b, "NODATA_value %s\n", nodata)
	}
	for y := range srcHeight {
		for x := range srcWidth {
			if x > 0 {
				b.WriteByte(' ')
			}
			v := (x*3+y*5)%220 - 110
			if unsigned {
				v += 120
			}
			if typ == "Int8" {
				v = (x*3 + y*5) % 110 // GDAL 3.6 converts to Byte: no negative values
			}
			switch {
			case nodata != "" && (x < srcCollar || (x*7+y*11)%89 == 0):
				b.WriteString(nodata)
			case strings.HasPrefix(typ, "Float"):
				fmt.Fprintf(&b, "%.3f", float64(v)+float64((x+y)%8)/8)
			default:
				fmt.Fprint(&b, v)
			}
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "heights.asc")
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

// gdalName is GDAL 3.6's name of a type: Int8 shows as Byte.
func gdalName(typ string) string {
	if typ == "Int8" {
		return "Byte"
	}
	return typ
}

// gdalType returns gdal_translate's -ot and creation options for a type
// (GDAL 3.6 makes Int8 as a Byte with PIXELTYPE=SIGNEDBYTE).
func gdalType(typ string) []string {
	if typ == "Int8" {
		return []string{"-ot", "Byte", "-co", "PIXELTYPE=SIGNEDBYTE"}
	}
	return []string{"-ot", typ}
}

// makeSource runs gdal_translate from src to dir/name with args and the
// EPSG:4326 CRS, returning the new file.
func makeSource(t *testing.T, src, name string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	gdalRun(t, "gdal_translate", append(append([]string{"-q", "-a_srs", "EPSG:4326"}, args...), src, out)...)
	return out
}

// rawSamples converts a raster (or the window args select) to raw
// little-endian samples of its first band with GDAL (the ENVI format).
func rawSamples(t *testing.T, path string, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "raw.img")
	gdalRun(t, "gdal_translate", append(append([]string{"-q", "-of", "ENVI", "-b", "1"}, args...), path, out)...)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return b
}

// roiPolygon is a quadrilateral inside the sources whose box edges fall
// inside pixels, not on their edges.
func roiPolygon() *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature,
		Geometry: exporttask.NewPolygon([]exporttask.Position{
			{34.10037, 31.22071}, {34.33113, 31.24064}, {34.28091, 31.37127}, {34.17071, 31.35052}, {34.10037, 31.22071}}),
	}}}
}

// gdalInfo is the part of `gdalinfo -json` these tests read beyond
// gdaltest.Dataset: the dataset's metadata, where LAYOUT=COG shows.
type gdalInfo struct {
	gdaltest.Dataset
	Metadata map[string]map[string]string `json:"metadata"`
}

func infoOf(t *testing.T, path string) gdalInfo {
	t.Helper()
	var d gdalInfo
	require.NoError(t, json.Unmarshal([]byte(gdalRun(t, "gdalinfo", "-json", path)), &d))
	return d
}

// checkAgainstGDAL registers src, exports it over roi and compares the
// export with `gdal_translate -projwin` of src over the job's box, both
// read by GDAL: the same size, corner, sample type and nodata value (the
// source's, when it has one); inside the ROI the same samples; outside it
// the export's nodata value.
func checkAgainstGDAL(t *testing.T, src string, roi *exporttask.FeatureCollection) (catalog.Record, []exporttask.Artifact, gdalInfo) {
	t.Helper()
	got, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	rec := got
	rec.ID = demoID
	rec.Location = t.TempDir()
	j := job(t, rec, roi)

	dir := t.TempDir()
	arts, err := New(Options{TempDir: t.TempDir()}).Export(context.Background(), j, testout.New(dir))
	require.NoError(t, err)
	ours := filepath.Join(dir, arts[0].Name)

	b := j.Box()
	want := rawSamples(t, src, "-projwin", fmt.Sprint(b.West), fmt.Sprint(b.North), fmt.Sprint(b.East), fmt.Sprint(b.South))
	have := rawSamples(t, ours)
	d := infoOf(t, ours)
	assert.Equal(t, "COG", d.Metadata["IMAGE_STRUCTURE"]["LAYOUT"], "gdalinfo reports LAYOUT=COG")
	require.Len(t, d.Bands, 1)
	require.NotNil(t, d.Bands[0].NoDataValue)

	// GDAL's cut starts at the pixel gdal_translate picks: the export's
	// corner must be there and hold as many samples.
	dx, dy := d.GeoTransform[1], -d.GeoTransform[5]
	assert.InDelta(t, srcRes, dx, 1e-15)
	assert.InDelta(t, srcRes, dy, 1e-15)
	wantCol := math.Floor((b.West-srcWest)/srcRes + 0.001)
	wantRow := math.Floor((srcNorth-b.North)/srcRes + 0.001)
	wantW := math.Floor((b.East-b.West)/srcRes + 0.5)
	wantH := math.Floor((b.North-b.South)/srcRes + 0.5)
	assert.InDelta(t, srcWest+wantCol*srcRes, d.GeoTransform[0], 1e-9)
	assert.InDelta(t, srcNorth-wantRow*srcRes, d.GeoTransform[3], 1e-9)
	assert.Equal(t, []int{int(wantW), int(wantH)}, d.Size)
	require.Len(t, have, len(want), "as many samples as GDAL's cut")

	size := len(have) / (d.Size[0] * d.Size[1])
	gt := d.GeoTransform
	var ndSample []byte
	inside, outside := 0, 0
	for y := range d.Size[1] {
		lat := gt[3] + (float64(y)+0.5)*gt[5]
		for x := range d.Size[0] {
			lon := gt[0] + (float64(x)+0.5)*gt[1]
			i := (y*d.Size[0] + x) * size
			if j.Contains(lon, lat) {
				inside++
				if !bytes.Equal(want[i:i+size], have[i:i+size]) {
					require.Failf(t, "pixel differs from GDAL's", "pixel (%d, %d): GDAL %x, ours %x", x, y, want[i:i+size], have[i:i+size])
				}
				continue
			}
			outside++
			if ndSample == nil {
				ndSample = have[i : i+size]
			}
			require.Equal(t, ndSample, have[i:i+size], "pixel (%d, %d) outside the ROI holds nodata", x, y)
		}
	}
	assert.Positive(t, inside)
	assert.Positive(t, outside)
	return rec, arts, d
}

func TestExportsEqualGDALCuts(t *testing.T) {
	types := []string{"Int8", "Byte", "Int16", "UInt16", "Int32", "UInt32", "Float32", "Float64"}
	layouts := map[string][]string{
		"striped": {"-co", "BLOCKYSIZE=9"},
		"tiled":   {"-co", "TILED=YES", "-co", "BLOCKXSIZE=64", "-co", "BLOCKYSIZE=32"},
		"cog":     {"-of", "COG", "-co", "BLOCKSIZE=128"},
	}
	for _, typ := range types {
		t.Run(typ, func(t *testing.T) {
			t.Parallel()
			nodata := map[string]string{"Int8": "120", "Byte": "250", "UInt16": "250", "UInt32": "250"}[typ]
			if nodata == "" {
				nodata = "-99"
			}
			asc := heightsGrid(t, typ, nodata)
			pred := "2"
			if strings.HasPrefix(typ, "Float") {
				pred = "3"
			}
			compressions := map[string][]string{
				"none":     {"-co", "COMPRESS=NONE"},
				"lzw":      {"-co", "COMPRESS=LZW", "-co", "PREDICTOR=" + pred},
				"deflate":  {"-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"},
				"packbits": {"-co", "COMPRESS=PACKBITS"},
			}
			for cname, copts := range compressions {
				for lname, lopts := range layouts {
					if lname == "cog" && (cname == "packbits" || typ == "Int8") {
						continue // GDAL 3.6's COG driver has neither PackBits nor PIXELTYPE
					}
					t.Run(cname+"-"+lname, func(t *testing.T) {
						src := makeSource(t, asc, "src.tif", append(append(gdalType(typ), copts...), lopts...)...)
						rec, _, d := checkAgainstGDAL(t, src, roiPolygon())
						assert.Equal(t, gdalName(typ), d.Bands[0].Type, "the source's sample type")
						assert.Equal(t, nodata, fmt.Sprint(*d.Bands[0].NoDataValue), "the source's nodata value")
						// The footprint starts after the nodata collar.
						ring := rec.Footprint.Polygon[0]
						assert.InDelta(t, srcWest+srcCollar*srcRes, ring[0][0], 1e-9, "west of the valid pixels")
						assert.InDelta(t, srcNorth-srcHeight*srcRes, ring[0][1], 1e-9)
						assert.InDelta(t, srcWest+srcWidth*srcRes, ring[2][0], 1e-9)
						assert.InDelta(t, srcNorth, ring[2][1], 1e-9)
						assert.InDelta(t, srcRes, rec.Resolution, 1e-15)
					})
				}
			}
			t.Run("no nodata", func(t *testing.T) {
				src := makeSource(t, heightsGrid(t, typ, ""), "src.tif", append(gdalType(typ), "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE")...)
				rec, arts, d := checkAgainstGDAL(t, src, roiPolygon())
				assert.InDelta(t, srcWest, rec.Footprint.Polygon[0][0][0], 1e-9, "every pixel is valid")
				want, err := strconv.ParseFloat(DefaultNoData(geotiff.SampleType(typ)), 64)
				require.NoError(t, err)
				assert.Equal(t, float32(want), float32(*d.Bands[0].NoDataValue), "the type's default nodata")
				assert.Len(t, arts, 3)
			})
		})
	}
}

func TestPixelIsPointShiftsHalfAPixel(t *testing.T) {
	asc := heightsGrid(t, "Int16", "-99")
	src := makeSource(t, asc, "point.tif", "-ot", "Int16", "-mo", "AREA_OR_POINT=Point", "-co", "TILED=YES", "-co", "COMPRESS=LZW")
	// GDAL writes the tiepoint at the first pixel's centre and reads the
	// same corner as for PixelIsArea.
	info := gdaltest.Info(t, src)
	assert.InDelta(t, srcWest, info.GeoTransform[0], 1e-12)
	rec, _, _ := checkAgainstGDAL(t, src, roiPolygon())
	assert.InDelta(t, srcNorth, rec.Footprint.Polygon[0][2][1], 1e-9)
}

func TestSourceWithOverviewsAndBigTIFF(t *testing.T) {
	asc := heightsGrid(t, "Float32", "-99")
	src := makeSource(t, asc, "ovr.tif", "-ot", "Float32", "-co", "BIGTIFF=YES", "-co", "TILED=YES", "-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=32", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3")
	gdalRun(t, "gdaladdo", "-q", "-r", "average", src, "2", "4", "8")
	checkAgainstGDAL(t, src, roiPolygon())
}

func TestExportWholeSourceWithoutROI(t *testing.T) {
	src := makeSource(t, heightsGrid(t, "Int16", "-99"), "src.tif", "-ot", "Int16", "-of", "COG", "-co", "COMPRESS=DEFLATE")
	got, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	got.ID, got.Location = demoID, t.TempDir()
	dir := t.TempDir()
	arts, err := New(Options{}).Export(context.Background(), job(t, got, nil), testout.New(dir))
	require.NoError(t, err)
	d := gdaltest.Info(t, filepath.Join(dir, arts[0].Name))
	assert.Equal(t, []int{srcWidth - srcCollar, srcHeight}, d.Size, "the footprint: the valid pixels")
}

func TestInspectRefusesWithAFix(t *testing.T) {
	asc := heightsGrid(t, "Int16", "-99")
	good := makeSource(t, asc, "good.tif", "-ot", "Int16", "-co", "COMPRESS=DEFLATE")
	goodBytes, err := os.ReadFile(good)
	require.NoError(t, err)
	truncated := filepath.Join(t.TempDir(), "truncated.tif")
	require.NoError(t, os.WriteFile(truncated, goodBytes[:len(goodBytes)*2/3], 0o644))
	notTIFF := filepath.Join(t.TempDir(), "heights.asc")
	require.NoError(t, os.WriteFile(notTIFF, []byte("ncols 3\n"), 0o644))
	allNoData := filepath.Join(t.TempDir(), "empty.tif")
	gdalRun(t, "gdal_create", "-q", "-of", "GTiff", "-outsize", "20", "10", "-ot", "Int16", "-burn", "-99", "-a_nodata", "-99",
		"-a_srs", "EPSG:4326", "-a_ullr", "34", "32", "34.2", "31.9", allNoData)

	// A rotated grid: GDAL writes a ModelTransformation for it.
	rotatedVRT := filepath.Join(t.TempDir(), "rotated.vrt")
	require.NoError(t, os.WriteFile(rotatedVRT, []byte(fmt.Sprintf(`<VRTDataset rasterXSize="%d" rasterYSize="%d">
  <SRS>EPSG:4326</SRS>
  <GeoTransform>34.1, 0.001, 0.0002, 31.4, 0.0002, -0.001</GeoTransform>
  <VRTRasterBand dataType="Int16" band="1">
    <SimpleSource><SourceFilename relativeToVRT="0">%s</SourceFilename><SourceBand>1</SourceBand></SimpleSource>
  </VRTRasterBand>
</VRTDataset>`, srcWidth, srcHeight, asc)), 0o644))
	rotated := filepath.Join(t.TempDir(), "rotated.tif")
	gdalRun(t, "gdal_translate", "-q", rotatedVRT, rotated)

	cases := []struct {
		name, path string
		make       []string // gdal_translate arguments from the ASCII grid, when path is ""
		problem    string
		fix        string
	}{
		{name: "unsupported projected", make: []string{"-ot", "Int16", "-a_srs", "EPSG:3035", "-a_ullr", "5700000", "3500000", "5730000", "3480000"},
			problem: "EPSG:3035 (ETRS89-extended / LAEA Europe) is not one this engine can transform", fix: "gdalwarp -t_srs EPSG:4326 -r bilinear -dstnodata -99"},
		{name: "user-defined", make: []string{"-ot", "Int16", "-a_srs", "+proj=tmerc +lon_0=35 +k=1 +ellps=GRS80 +units=m +no_defs", "-a_ullr", "0", "3500000", "30000", "3480000"},
			problem: "user-defined projected CRS", fix: "gdalwarp -t_srs EPSG:4326 -r bilinear -dstnodata -99"},
		{name: "rgb", make: []string{"-ot", "Byte", "-b", "1", "-b", "1", "-b", "1", "-co", "PHOTOMETRIC=RGB", "-a_srs", "EPSG:4326"},
			problem: "3 bands (RGB)", fix: "a DEM has one band"},
		{name: "planar", make: []string{"-ot", "Int16", "-b", "1", "-b", "1", "-co", "INTERLEAVE=BAND", "-a_srs", "EPSG:4326"},
			problem: "2 bands stored band by band", fix: "gdal_translate -b 1"},
		{name: "jpeg", make: []string{"-ot", "Byte", "-co", "COMPRESS=JPEG", "-a_srs", "EPSG:4326"},
			problem: "JPEG compression is not supported", fix: "gdal_translate -of COG -co COMPRESS=DEFLATE"},
		{name: "lerc", make: []string{"-ot", "Float32", "-co", "COMPRESS=LERC", "-a_srs", "EPSG:4326"},
			problem: "LERC compression", fix: "COMPRESS=DEFLATE"},
		{name: "complex", make: []string{"-ot", "CInt16", "-a_srs", "EPSG:4326"}, problem: "complex integer", fix: "-ot Float32"},
		{name: "no crs", make: []string{"-ot", "Int16", "-a_ullr", "34", "32", "34.3", "31.8"}, problem: "no CRS", fix: "gdal_edit.py -a_srs EPSG:4326"},
		{name: "rotated", path: rotated, problem: "the grid is rotated", fix: "gdalwarp -t_srs EPSG:4326"},
		{name: "truncated", path: truncated, problem: "truncated", fix: "copy or download it again"},
		{name: "not a tiff", path: notTIFF, problem: "not a TIFF file", fix: "gdal_translate -of COG"},
		{name: "missing", path: filepath.Join(t.TempDir(), "nope.tif"), problem: "cannot be read", fix: "check the path"},
		{name: "all nodata", path: allNoData, problem: "every pixel is nodata", fix: "gdalinfo -stats"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := c.path
			if path == "" {
				path = filepath.Join(t.TempDir(), strings.ReplaceAll(c.name, " ", "-")+".tif")
				gdalRun(t, "gdal_translate", append(append([]string{"-q"}, c.make...), asc, path)...)
			}
			_, err := Inspect(context.Background(), catalog.Source{Path: path})
			var se *export.SourceError
			require.True(t, errors.As(err, &se), "%v", err)
			msg := err.Error()
			t.Log(msg)
			assert.NotContains(t, msg, "\n", "one line")
			assert.True(t, strings.HasPrefix(msg, path+": "), "names the file: %s", msg)
			assert.Contains(t, se.Problem, c.problem, msg)
			assert.Contains(t, se.Fix, c.fix, msg)
		})
	}
}

func TestSourceChangedAfterInspectFailsPermanently(t *testing.T) {
	src := makeSource(t, heightsGrid(t, "Int16", "-99"), "src.tif", "-ot", "Int16", "-co", "TILED=YES")
	rec, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	rec.ID, rec.Location = demoID, t.TempDir()
	// Rewritten in place by another gdal_translate: another size.
	gdalRun(t, "gdal_translate", "-q", "-ot", "Int16", "-co", "COMPRESS=DEFLATE", "-a_srs", "EPSG:4326", heightsGrid(t, "Int16", "-99"), src)
	j := job(t, rec, jobtest.Triangle())
	_, err = New(Options{}).Estimate(context.Background(), j)
	assert.True(t, export.IsPermanent(err), "%v", err)
	dir := t.TempDir()
	_, err = New(Options{}).Export(context.Background(), j, testout.New(dir))
	require.Error(t, err)
	assert.True(t, export.IsPermanent(err), "%v", err)
	assert.ErrorContains(t, err, "changed after it was registered")
	assert.Empty(t, files(t, dir))
}

// countingFile counts the bytes read through ReadAt.
type countingFile struct {
	*os.File
	n *int64
}

func (f countingFile) ReadAt(b []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(b, off)
	*f.n += int64(n)
	return n, err
}

func TestValidBoxReadsOnlyTheBorderOfAFullSource(t *testing.T) {
	src := makeSource(t, heightsGrid(t, "Int16", ""), "full.tif", "-ot", "Int16", "-co", "TILED=YES",
		"-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=32", "-co", "COMPRESS=DEFLATE")
	var read int64
	s, err := openGeoTIFF(src, func(p string) (SourceFile, error) {
		f, err := os.Open(p)
		return countingFile{File: f, n: &read}, err
	})
	require.NoError(t, err)
	defer s.Close()
	f := s.tif
	// The outer ring is visited first, the top and bottom tiles of each
	// column in turn: the first column's two span every row, and each
	// top tile then widens the box, so every bottom tile after the first
	// and every other tile lies inside the box found.
	var all, border int64
	for by := range f.BlocksDown() {
		for bx := range f.BlocksAcross() {
			all += f.BlockBytes(bx, by)
			if by == 0 || (by == f.BlocksDown()-1 && bx == 0) {
				border += f.BlockBytes(bx, by)
			}
		}
	}
	read = 0
	box, ok, err := s.validBox(context.Background())
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, pixelBox{0, 0, srcWidth - 1, srcHeight - 1}, box)
	assert.Equal(t, border, read, "the top row of tiles and one bottom tile, each once (of %d bytes in all)", all)
}
