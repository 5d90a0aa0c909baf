package cog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// sampleType is one of the sample types with what GDAL calls it and the
// nodata value the tests use.
type sampleType struct {
	name         string
	bits, format int
	noData       string
	// enviType is the ENVI data type GDAL reads the reference raw file
	// as; Int8 is handed to GDAL widened to Int16 because GDAL 3.6 has no
	// signed byte type and would average the bytes as unsigned.
	enviType int
}

var sampleTypes = []sampleType{
	{"Int8", 8, 2, "-128", 2},
	{"Byte", 8, 1, "255", 1},
	{"Int16", 16, 2, "-32768", 2},
	{"UInt16", 16, 1, "65535", 12},
	{"Int32", 32, 2, "-2147483648", 3},
	{"UInt32", 32, 1, "4294967295", 13},
	{"Float32", 32, 3, "-9999", 4},
	{"Float64", 64, 3, "nan", 5},
}

// value is the test image: a function of (x, y) in the type's range, with
// scattered nodata pixels and a 40×40 block of nodata at the top left so
// that whole overview pixels are nodata.
func (st sampleType) value(x, y int) float64 {
	if st.noData != "" && ((x < 40 && y < 40) || (x*x+3*y)%23 == 0) {
		return st.noDataValue()
	}
	switch st.name {
	case "Int8":
		return float64((x*3+y*5)%201 - 100)
	case "Byte":
		return float64((x*3 + y*5) % 250)
	case "Int16":
		return float64((x*7+y*13)%2000 - 1000)
	case "UInt16":
		return float64((x*7 + y*13) % 60000)
	case "Int32":
		return float64((x*101+y*37)%2000000 - 1000000)
	case "UInt32":
		return float64((x*101 + y*37) % 4000000)
	case "Float32":
		return float64(float32(1000*math.Sin(float64(x)/50)*math.Cos(float64(y)/30) + 0.01*float64(x)))
	}
	return 1000*math.Sin(float64(x)/50)*math.Cos(float64(y)/30) + 1e-9*float64(x*y)
}

func (st sampleType) noDataValue() float64 {
	v, err := strconv.ParseFloat(st.noData, 64)
	if err != nil {
		panic(err)
	}
	return v
}

func (st sampleType) kind() kind { return kindOf(st.bits, st.format) }

// refKind is the sample type of the raw file handed to GDAL (enviType).
func (st sampleType) refKind() kind {
	return map[int]kind{1: kindUint8, 2: kindInt16, 3: kindInt32, 4: kindFloat32, 5: kindFloat64, 12: kindUint16, 13: kindUint32}[st.enviType]
}

func (st sampleType) image(w, h, bs int) Image {
	return Image{
		Width: w, Height: h, BitsPerSample: st.bits, SampleFormat: st.format,
		West: 34.25, North: 31.75, PixelWidth: 0.001, PixelHeight: 0.002,
		NoData: st.noData, BlockSize: bs,
	}
}

// rows returns the rows of st.value.
func (st sampleType) rows(w int) Rows {
	vals := make([]float64, w)
	return func(y int, buf []byte) error {
		for x := range vals {
			vals[x] = st.value(x, y)
		}
		st.kind().encode(vals, buf)
		return nil
	}
}

// writeFile writes img to a file in a fresh directory, checking that the
// scratch directory is left empty and the byte count is right.
func writeFile(t *testing.T, img Image, rows Rows, big bool) string {
	t.Helper()
	dir := t.TempDir()
	scratch := filepath.Join(dir, "scratch")
	require.NoError(t, os.Mkdir(scratch, 0o755))
	var buf bytes.Buffer
	n, err := write(context.Background(), &buf, img, rows, Options{ScratchDir: scratch}, big)
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), n)
	assert.LessOrEqual(t, n, MaxSize(img))
	assertEmpty(t, scratch)
	path := filepath.Join(dir, "out.tif")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "scratch directory %s", dir)
}

// info is the part of gdalinfo -json these tests read beyond gdaltest's.
type info struct {
	DriverShortName  string `json:"driverShortName"`
	Size             []int  `json:"size"`
	CoordinateSystem struct {
		WKT string `json:"wkt"`
	} `json:"coordinateSystem"`
	CornerCoordinates struct {
		UpperLeft  []float64 `json:"upperLeft"`
		LowerRight []float64 `json:"lowerRight"`
	} `json:"cornerCoordinates"`
	Metadata map[string]map[string]string `json:"metadata"`
	Bands    []struct {
		Type        string                       `json:"type"`
		NoDataValue json.RawMessage              `json:"noDataValue"`
		Block       []int                        `json:"block"`
		Metadata    map[string]map[string]string `json:"metadata"`
		Overviews   []struct {
			Size []int `json:"size"`
		} `json:"overviews"`
	} `json:"bands"`
}

func gdalInfo(t *testing.T, path string) info {
	t.Helper()
	out := gdaltest.Run(t, gdaltest.Require(t, "gdalinfo"), "-json", path)
	var d info
	require.NoError(t, json.Unmarshal([]byte(out), &d))
	return d
}

// readRaster has gdal_translate read level ovr of path (-1 for full
// resolution) into a raw file and decodes it.
func readRaster(t *testing.T, path string, ovr int, k kind, w, h int) []float64 {
	t.Helper()
	bin := gdaltest.Require(t, "gdal_translate")
	raw := filepath.Join(t.TempDir(), "level.raw")
	args := []string{"-q", "-of", "ENVI"}
	if ovr >= 0 {
		args = append(args, "-ovr", strconv.Itoa(ovr))
	}
	gdaltest.Run(t, bin, append(args, path, raw)...)
	b, err := os.ReadFile(raw)
	require.NoError(t, err)
	size := k.bytes()
	require.Len(t, b, w*h*size, "raw size of level %d", ovr)
	vals := make([]float64, w*h)
	k.decode(b, vals)
	return vals
}

func (k kind) bytes() int {
	switch k {
	case kindInt8, kindUint8:
		return 1
	case kindInt16, kindUint16:
		return 2
	case kindFloat64:
		return 8
	}
	return 4
}

// gdalReference writes st.value as a raw file, has GDAL's COG driver build
// AVERAGE overviews from it and returns the path of GDAL's file.
func gdalReference(t *testing.T, st sampleType, w, h, bs int) string {
	t.Helper()
	bin := gdaltest.Require(t, "gdal_translate")
	dir := t.TempDir()
	k := st.refKind()
	vals := make([]float64, w)
	row := make([]byte, w*k.bytes())
	var data bytes.Buffer
	for y := range h {
		for x := range vals {
			vals[x] = st.value(x, y)
		}
		k.encode(vals, row)
		data.Write(row)
	}
	raw := filepath.Join(dir, "ref.raw")
	require.NoError(t, os.WriteFile(raw, data.Bytes(), 0o644))
	hdr := fmt.Sprintf("ENVI\nsamples = %d\nlines = %d\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = %d\ninterleave = bsq\nbyte order = 0\n", w, h, st.enviType)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ref.hdr"), []byte(hdr), 0o644))
	out := filepath.Join(dir, "ref.tif")
	// -if ENVI: the raw bytes alone can look like another format (a
	// Float64 grid once opened as an NGS geoid file).
	args := []string{"-q", "-if", "ENVI", "-of", "COG"}
	if st.noData != "" {
		args = append(args, "-a_nodata", st.noData)
	}
	gdaltest.Run(t, bin, append(args, "-a_srs", "EPSG:4326",
		"-a_ullr", "34.25", "31.75", strconv.FormatFloat(34.25+0.001*float64(w), 'f', -1, 64), strconv.FormatFloat(31.75-0.002*float64(h), 'f', -1, 64),
		"-co", "BLOCKSIZE="+strconv.Itoa(bs), "-co", "RESAMPLING=AVERAGE", "-co", "COMPRESS=DEFLATE", raw, out)...)
	return out
}

func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

func TestEverySampleTypeAgainstGDAL(t *testing.T) {
	const w, h, bs = 290, 170, 128
	for _, st := range sampleTypes {
		t.Run(st.name, func(t *testing.T) {
			img := st.image(w, h, bs)
			path := writeFile(t, img, st.rows(w), false)
			x := gdalInfo(t, path)
			assert.Equal(t, "GTiff", x.DriverShortName)
			assert.Equal(t, []int{w, h}, x.Size)
			assert.Contains(t, x.CoordinateSystem.WKT, `ID["EPSG",4326]`)
			assert.InDeltaSlice(t, []float64{34.25, 31.75}, x.CornerCoordinates.UpperLeft, 1e-9)
			assert.InDeltaSlice(t, []float64{34.54, 31.41}, x.CornerCoordinates.LowerRight, 1e-9)
			require.Len(t, x.Bands, 1)
			// gdalinfo writes a NaN nodata value as the string "nan".
			gotND, err := strconv.ParseFloat(strings.Trim(string(x.Bands[0].NoDataValue), `"`), 64)
			require.NoError(t, err, "nodata %s", x.Bands[0].NoDataValue)
			assert.True(t, same(st.noDataValue(), gotND), "nodata %v, want %s", gotND, st.noData)
			assert.Equal(t, "COG", x.Metadata["IMAGE_STRUCTURE"]["LAYOUT"])
			assert.Equal(t, "DEFLATE", x.Metadata["IMAGE_STRUCTURE"]["COMPRESSION"])
			assert.Equal(t, strconv.Itoa(int(st.kind().predictor())), x.Metadata["IMAGE_STRUCTURE"]["PREDICTOR"])
			require.Len(t, x.Bands, 1)
			b := x.Bands[0]
			if st.name == "Int8" && b.Type == "Byte" {
				// GDAL before 3.7 reads signed bytes as Byte marked so.
				assert.Equal(t, "SIGNEDBYTE", b.Metadata["IMAGE_STRUCTURE"]["PIXELTYPE"])
			} else {
				assert.Equal(t, st.name, b.Type)
			}
			assert.Equal(t, []int{bs, bs}, b.Block)
			var sizes [][]int
			for _, o := range b.Overviews {
				sizes = append(sizes, o.Size)
			}
			assert.Equal(t, [][]int{{145, 85}, {72, 42}}, sizes)

			full := readRaster(t, path, -1, st.kind(), w, h)
			bad := 0
			for y := range h {
				for x := range w {
					if !same(full[y*w+x], st.kind().quantize(st.value(x, y))) {
						if bad < 5 {
							t.Errorf("pixel (%d, %d): GDAL reads %v, want %v", x, y, full[y*w+x], st.value(x, y))
						}
						bad++
					}
				}
			}
			assert.Zero(t, bad, "full-resolution pixels GDAL reads differently")

			ref := gdalReference(t, st, w, h, bs)
			refInfo := gdalInfo(t, ref)
			require.Len(t, refInfo.Bands, 1)
			require.Len(t, refInfo.Bands[0].Overviews, len(sizes), "GDAL's overview count")
			for i, s := range sizes {
				assert.Equal(t, s, refInfo.Bands[0].Overviews[i].Size)
				ours := readRaster(t, path, i, st.kind(), s[0], s[1])
				theirs := readRaster(t, ref, i, st.refKind(), s[0], s[1])
				compareOverview(t, st, i, s[0], ours, theirs)
			}
		})
	}
}

// compareOverview checks our overview pixels against GDAL's. They must be
// equal but in two cases, where GDAL 3.6 rounds more often than we do and
// our means are the more accurate:
//
//   - Float64: GDAL averages Float64 in float32 (its working type for
//     every type but Byte and UInt16): it rounds the source pixels to
//     float32, then the mean, and builds each level from the one before, so
//     its level i (0 the first overview) is off by at most i+2 float32
//     roundings, each 2^-24 of the data's magnitude, where ours keeps
//     float64 throughout.
//   - Float32 without nodata: GDAL's shortcut for whole 2×2 blocks adds
//     the four samples in float32, rounding after each addition, where we
//     add in float64 and round once; that is at most one float32 unit in
//     the last place (2^-23 of the magnitude) per level.
func compareOverview(t *testing.T, st sampleType, level, w int, ours, theirs []float64) {
	t.Helper()
	magnitude := 0.0
	for _, v := range theirs {
		if !math.IsNaN(v) {
			magnitude = math.Max(magnitude, math.Abs(v))
		}
	}
	tol := 0.0
	switch {
	case st.name == "Float64":
		tol = float64(level+2) * 0x1p-24 * magnitude
	case st.name == "Float32" && st.noData == "":
		tol = float64(level+1) * 0x1p-23 * magnitude
	}
	exact, off := 0, 0
	maxDiff := 0.0
	for i := range ours {
		a, b := ours[i], theirs[i]
		if same(a, b) {
			exact++
			continue
		}
		d := math.Abs(a - b)
		if math.IsNaN(d) {
			d = math.Inf(1)
		}
		maxDiff = math.Max(maxDiff, d)
		if d <= tol {
			continue
		}
		if off < 5 {
			t.Errorf("%s overview %d pixel (%d, %d): ours %v, GDAL %v", st.name, level, i%w, i/w, a, b)
		}
		off++
	}
	t.Logf("%s overview %d: %d of %d pixels equal, max difference %g (tolerance %g)", st.name, level, exact, len(ours), maxDiff, tol)
	assert.Zero(t, off, "%s overview %d pixels differing from GDAL by more than %g", st.name, level, tol)
}

func nan() float64 { return math.NaN() }
