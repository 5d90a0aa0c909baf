package geotiff

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// gridWidth and gridHeight are the size of the GDAL-made test rasters.
const gridWidth, gridHeight = 150, 100

// asciiGrid writes an Esri ASCII grid (a text format GDAL reads) of value(x,
// y) with the given nodata text, and returns its path: the test rasters are
// made from it by gdal_translate, so every input file is written by GDAL.
func asciiGrid(t *testing.T, value func(x, y int) string, nodata string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "ncols %d\nnrows %d\nxllcorner 34.1\nyllcorner 31.2\ncellsize 0.002\n", gridWidth, gridHeight)
	if nodata != "" {
		fmt.Fprintf(&b, "NODATA_value %s\n", nodata)
	}
	for y := range gridHeight {
		for x := range gridWidth {
			if x > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(value(x, y))
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "grid.asc")
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

// sampleValue returns a test value of type typ at (x, y): integers within
// Int8's range shifted for unsigned types, fractions for floats, nodata
// (-99 or 199) in a few pixels.
func sampleValue(typ string) func(x, y int) string {
	return func(x, y int) string {
		v := (x*7+y*13)%200 - 100
		if strings.HasPrefix(typ, "U") || typ == "Byte" {
			v += 100
		}
		if (x+3*y)%97 == 0 {
			return map[bool]string{true: "199", false: "-99"}[strings.HasPrefix(typ, "U") || typ == "Byte"]
		}
		if strings.HasPrefix(typ, "Float") {
			return fmt.Sprintf("%.3f", float64(v)+float64(x%10)/8)
		}
		return fmt.Sprint(v)
	}
}

func noDataOf(typ string) string {
	if strings.HasPrefix(typ, "U") || typ == "Byte" {
		return "199"
	}
	return "-99"
}

// gdalType returns the -ot value and extra creation options for a GDAL
// 3.6 type name (Int8 is a Byte with PIXELTYPE=SIGNEDBYTE there).
func gdalType(typ string) (string, []string) {
	if typ == "Int8" {
		return "Byte", []string{"-co", "PIXELTYPE=SIGNEDBYTE"}
	}
	return typ, nil
}

var allTypes = []string{"Int8", "Byte", "Int16", "UInt16", "Int32", "UInt32", "Float32", "Float64"}

// translate runs gdal_translate with args from src to a new file and
// returns the new file's path.
func translate(t *testing.T, src, name string, args ...string) string {
	t.Helper()
	bin := gdaltest.Require(t, "gdal_translate")
	out := filepath.Join(t.TempDir(), name)
	gdaltest.Run(t, bin, append(append([]string{"-q"}, args...), src, out)...)
	return out
}

// openFile opens path with Open.
func openFile(t *testing.T, path string) *File {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err, path)
	return f
}

// readAll reads the whole first band through a Window.
func readAll(t *testing.T, f *File) []byte {
	t.Helper()
	w, err := f.Window(0, 0, f.Width, f.Height)
	require.NoError(t, err)
	rowBytes := f.Width * f.SampleBytes()
	out := make([]byte, rowBytes*f.Height)
	for y := range f.Height {
		require.NoError(t, w.Row(y, out[y*rowBytes:(y+1)*rowBytes]))
	}
	return out
}

// reference converts src to raw little-endian samples with GDAL (ENVI
// format) and returns them.
func reference(t *testing.T, src string, args ...string) []byte {
	t.Helper()
	out := translate(t, src, "ref.img", append([]string{"-of", "ENVI", "-co", "INTERLEAVE=BSQ", "-b", "1"}, args...)...)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return b
}

func TestReadsWhatGDALWrites(t *testing.T) {
	// Every type in every compression, the layout turning round so that
	// each type and each compression meets every layout (the dem package's
	// tests run the full product end to end).
	layoutNames := []string{"striped", "tiled", "cog"}
	layouts := map[string][]string{
		"striped": {"-co", "BLOCKYSIZE=7"},
		"tiled":   {"-co", "TILED=YES", "-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=16"},
		"cog":     {"-of", "COG", "-co", "BLOCKSIZE=64"},
	}
	for k, typ := range allTypes {
		t.Run(typ, func(t *testing.T) {
			t.Parallel()
			ot, extra := gdalType(typ)
			asc := asciiGrid(t, sampleValue(typ), noDataOf(typ))
			want := reference(t, asc, append([]string{"-ot", ot}, extra...)...)
			require.Len(t, want, gridWidth*gridHeight*len(want)/(gridWidth*gridHeight))
			pred := "2"
			if strings.HasPrefix(typ, "Float") {
				pred = "3"
			}
			compressions := []struct {
				name string
				opts []string
			}{
				{"none", []string{"-co", "COMPRESS=NONE"}},
				{"lzw", []string{"-co", "COMPRESS=LZW", "-co", "PREDICTOR=" + pred}},
				{"lzw1", []string{"-co", "COMPRESS=LZW"}},
				{"deflate", []string{"-co", "COMPRESS=DEFLATE"}},
				{"deflate2", []string{"-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"}},
				{"packbits", []string{"-co", "COMPRESS=PACKBITS"}},
			}
			for i, c := range compressions {
				cname, copts := c.name, c.opts
				for _, lname := range []string{layoutNames[(i+k)%3]} {
					lopts := layouts[lname]
					if lname == "cog" && (cname == "packbits" || typ == "Int8") {
						// The COG driver offers no PackBits, and in GDAL 3.6
						// no PIXELTYPE: a tiled file instead.
						lname, lopts = "tiled", layouts["tiled"]
					}
					args := append(append(append([]string{"-ot", ot}, extra...), copts...), lopts...)
					p := translate(t, asc, cname+"-"+lname+".tif", args...)
					f := openFile(t, p)
					require.NoError(t, f.Decodable(), "%s %s", cname, lname)
					assert.Equal(t, lname != "striped", f.Tiled)
					got := readAll(t, f)
					if !sameBytes(t, want, got, "%s %s %s: samples differ from GDAL's", typ, cname, lname) {
						return
					}
					st, err := f.SampleType()
					require.NoError(t, err)
					assert.Equal(t, typ, map[SampleType]string{UInt8: "Byte"}[st]+strings.TrimPrefix(string(st), "Byte"))
					assert.True(t, f.HasNoData)
					assert.Equal(t, noDataOf(typ), f.NoData)
					if lname == "cog" {
						assert.Positive(t, f.Overviews, "the COG has overviews")
					}
				}
			}
		})
	}
}

func TestReadsByteOrderBigTIFFAndBands(t *testing.T) {
	asc := asciiGrid(t, sampleValue("Float32"), "-99")
	for name, args := range map[string][]string{
		"big-endian int16 lzw":      {"-ot", "Int16", "-co", "ENDIANNESS=BIG", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"},
		"big-endian float32 pred3":  {"-ot", "Float32", "-co", "ENDIANNESS=BIG", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", "-co", "TILED=YES", "-co", "BLOCKXSIZE=16", "-co", "BLOCKYSIZE=16"},
		"big-endian float64 none":   {"-ot", "Float64", "-co", "ENDIANNESS=BIG"},
		"bigtiff uint32 tiled":      {"-ot", "UInt32", "-scale", "-100", "100", "0", "4000000000", "-co", "BIGTIFF=YES", "-co", "TILED=YES", "-co", "BLOCKXSIZE=16", "-co", "BLOCKYSIZE=32", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"},
		"bigtiff big-endian int32":  {"-ot", "Int32", "-co", "BIGTIFF=YES", "-co", "ENDIANNESS=BIG", "-co", "COMPRESS=PACKBITS"},
		"three bands pixel int16":   {"-ot", "Int16", "-b", "1", "-b", "1", "-b", "1", "-co", "INTERLEAVE=PIXEL", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"},
		"three bands pixel float32": {"-ot", "Float32", "-b", "1", "-b", "1", "-b", "1", "-co", "INTERLEAVE=PIXEL", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", "-co", "TILED=YES"},
	} {
		t.Run(name, func(t *testing.T) {
			p := translate(t, asc, "x.tif", args...)
			f := openFile(t, p)
			want := reference(t, p)
			sameBytes(t, want, readAll(t, f))
			assert.Equal(t, strings.Contains(name, "big-endian"), f.BigEndian)
			assert.Equal(t, strings.Contains(name, "bigtiff"), f.BigTIFF)
		})
	}
}

func TestWindowReadsOnlyTheBlocksItMeets(t *testing.T) {
	asc := asciiGrid(t, sampleValue("Int16"), "-99")
	p := translate(t, asc, "t.tif", "-ot", "Int16", "-co", "TILED=YES", "-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=32", "-co", "COMPRESS=DEFLATE")
	f := openFile(t, p)
	all := readAll(t, f)
	// Columns 40..71 and rows 10..49 meet tiles x 1..2, y 0..1.
	w, err := f.Window(40, 10, 32, 40)
	require.NoError(t, err)
	row := make([]byte, 64)
	for y := range 40 {
		require.NoError(t, w.Row(y, row))
		start := ((10+y)*gridWidth + 40) * 2
		require.Equal(t, all[start:start+64], row, "row %d", y)
	}
	var tiles int64
	for by := 0; by <= 1; by++ {
		for bx := 1; bx <= 2; bx++ {
			tiles += f.BlockBytes(bx, by)
		}
	}
	assert.Equal(t, tiles, w.StoredBytes())
	assert.Equal(t, tiles, w.BytesRead(), "each tile met is read once")
}

func TestGeoreferencingAsGDALSees(t *testing.T) {
	asc := asciiGrid(t, sampleValue("Int16"), "")
	cases := map[string][]string{
		"area":        {"-a_srs", "EPSG:4326"},
		"point":       {"-a_srs", "EPSG:4326", "-mo", "AREA_OR_POINT=Point"},
		"wgs84 proj4": {"-a_srs", "+proj=longlat +datum=WGS84 +no_defs"},
		"utm":         {"-a_srs", "EPSG:32636"},
		"nad83":       {"-a_srs", "EPSG:4269"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			p := translate(t, asc, "g.tif", append([]string{"-ot", "Int16"}, args...)...)
			f := openFile(t, p)
			d := gdaltest.Info(t, p)
			gt, err := f.Geo.GeoTransform()
			require.NoError(t, err)
			assert.InDeltaSlice(t, d.GeoTransform, gt[:], 1e-12)
			assert.Equal(t, name == "area" || name == "point" || name == "wgs84 proj4", f.Geo.IsWGS84(), "%s: %s %+v", name, f.Geo, f.Geo.Keys)
			if name == "point" {
				assert.Equal(t, RasterPixelIsPoint, f.Geo.Code(KeyRasterType))
			}
			assert.False(t, f.HasNoData)
		})
	}
}

func TestOpenRefusesBrokenFiles(t *testing.T) {
	asc := asciiGrid(t, sampleValue("Int16"), "-99")
	p := translate(t, asc, "t.tif", "-ot", "Int16", "-co", "COMPRESS=DEFLATE", "-a_srs", "EPSG:4326")
	good, err := os.ReadFile(p)
	require.NoError(t, err)
	for name, b := range map[string][]byte{
		"empty":          nil,
		"not tiff":       []byte("GIF89a......"),
		"header only":    good[:8],
		"half":           good[:len(good)/2],
		"last byte gone": good[:len(good)-1],
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Open(bytes.NewReader(b), int64(len(b)))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "geotiff: "), err.Error())
		})
	}
	// A corrupt block decodes to an error, not a panic.
	bad := bytes.Clone(good)
	f := openFile(t, p)
	off := f.offsets[3]
	for i := range 20 {
		bad[off+uint64(i)] ^= 0x5a
	}
	f2, err := Open(bytes.NewReader(bad), int64(len(bad)))
	require.NoError(t, err)
	br, err := f2.Blocks()
	require.NoError(t, err)
	_, err = br.Block(0, 3)
	assert.ErrorContains(t, err, "strip 3")
}

func TestEncodeValue(t *testing.T) {
	var b [8]byte
	assert.True(t, EncodeValue(Int16, "-32768", b[:]))
	assert.Equal(t, []byte{0x00, 0x80}, b[:2])
	assert.False(t, EncodeValue(Int16, "40000", b[:]))
	assert.False(t, EncodeValue(UInt8, "1.5", b[:]))
	assert.True(t, EncodeValue(Float32, "nan", b[:]))
	assert.True(t, math.IsNaN(float64(math.Float32frombits(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24))))
	assert.False(t, EncodeValue(Float64, "abc", b[:]))
}

func FuzzOpen(f *testing.F) {
	// A COG the cog package writes: tiles, Deflate with the floating-point
	// predictor, overviews, GDAL's ghost area.
	f.Add(rampCOG(f, 37, 21))
	// Small files GDAL writes, when it is installed: uncompressed strips,
	// tiles, LZW and PackBits, BigTIFF, big-endian, GeoKeys.
	if bin, err := exec.LookPath("gdal_create"); err == nil {
		dir := f.TempDir()
		for i, args := range [][]string{
			{"-ot", "Float32"},
			{"-ot", "Int16", "-co", "TILED=YES", "-co", "BLOCKXSIZE=16", "-co", "BLOCKYSIZE=16", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"},
			{"-ot", "Float32", "-co", "BIGTIFF=YES", "-co", "ENDIANNESS=BIG", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3"},
			{"-ot", "Byte", "-co", "COMPRESS=PACKBITS", "-a_nodata", "7", "-bands", "2"},
		} {
			p := filepath.Join(dir, fmt.Sprintf("seed%d.tif", i))
			cmd := exec.Command(bin, append(append([]string{"-q", "-of", "GTiff", "-outsize", "20", "12", "-burn", "3", "-a_srs", "EPSG:4326",
				"-a_ullr", "34", "32", "34.2", "31.9"}, args...), p)...)
			if err := cmd.Run(); err != nil {
				f.Fatalf("gdal_create %v: %v", args, err)
			}
			b, err := os.ReadFile(p)
			require.NoError(f, err)
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		_, _ = file.Geo.GeoTransform()
		br, err := file.Blocks()
		if err != nil || file.blockSamples()*int64(file.SampleBytes()) > 1<<20 {
			return // decoding big blocks is slow, not interesting
		}
		for by := range min(file.BlocksDown(), 4) {
			for bx := range min(file.BlocksAcross(), 4) {
				_, _ = br.Block(bx, by)
			}
		}
	})
}

// sameBytes checks got equals want, reporting the first difference rather
// than both dumps.
func sameBytes(t *testing.T, want, got []byte, msgAndArgs ...any) bool {
	t.Helper()
	if bytes.Equal(want, got) {
		return true
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	return assert.Fail(t, fmt.Sprintf("%d bytes want, %d got, first difference at byte %d (%x vs %x)", len(want), len(got), i,
		want[i:min(i+8, len(want))], got[i:min(i+8, len(got))]), msgAndArgs...)
}

func TestGeoTransformFromModelTransformation(t *testing.T) {
	g := Geo{Transform: []float64{0.5, 0, 0, 34, 0, -0.25, 0, 32, 0, 0, 0, 0, 0, 0, 0, 1}}
	gt, err := g.GeoTransform()
	require.NoError(t, err)
	assert.Equal(t, [6]float64{34, 0.5, 0, 32, 0, -0.25}, gt)
	g.Keys = map[int]GeoKey{KeyRasterType: {Code: RasterPixelIsPoint}}
	gt, err = g.GeoTransform()
	require.NoError(t, err)
	assert.Equal(t, [6]float64{33.75, 0.5, 0, 32.125, 0, -0.25}, gt, "half a pixel up and left")

	_, err = Geo{Tiepoints: []float64{0, 0, 0, 34, 32, 0, 10, 10, 0, 35, 31, 0}}.GeoTransform()
	assert.ErrorContains(t, err, "2 ground control points")
	_, err = Geo{}.GeoTransform()
	assert.ErrorContains(t, err, "no georeferencing")
}
