package geotiff

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// ramp is a test image: value = 100*y + x, with nodata in the top-left
// pixel.
func ramp(img Image) Rows {
	return func(y int, row []float32) error {
		for x := range row {
			row[x] = float32(100*y + x)
		}
		if y == 0 {
			row[0] = float32(img.NoData)
		}
		return nil
	}
}

func testImage(c Compression) Image {
	return Image{Width: 37, Height: 21, West: 34.25, North: 31.75, PixelSize: 0.01, NoData: -32768, RowsPerStrip: 4, Compression: c}
}

func writeFile(t *testing.T, img Image, rows Rows) (string, int64) {
	t.Helper()
	var buf bytes.Buffer
	n, err := Encode(&buf, img, rows, nil)
	require.NoError(t, err)
	require.Equal(t, int64(buf.Len()), n)
	path := filepath.Join(t.TempDir(), "t.tif")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path, n
}

func TestGDALReadsBothCompressions(t *testing.T) {
	for _, c := range []Compression{None, Deflate} {
		t.Run(map[Compression]string{None: "none", Deflate: "deflate"}[c], func(t *testing.T) {
			img := testImage(c)
			path, n := writeFile(t, img, ramp(img))
			if c == None {
				size, err := Size(img)
				require.NoError(t, err)
				assert.Equal(t, size, n, "Size predicts the uncompressed file exactly")
			}
			d := gdaltest.Info(t, path, "-stats")
			assert.Equal(t, "GTiff", d.DriverShortName)
			assert.Equal(t, []int{37, 21}, d.Size)
			assert.Contains(t, d.CoordinateSystem.WKT, `ID["EPSG",4326]`)
			assert.InDeltaSlice(t, []float64{34.25, 31.75}, d.CornerCoordinates.UpperLeft, 1e-9)
			assert.InDeltaSlice(t, []float64{34.62, 31.54}, d.CornerCoordinates.LowerRight, 1e-9)
			require.Len(t, d.Bands, 1)
			b := d.Bands[0]
			assert.Equal(t, "Float32", b.Type)
			require.NotNil(t, b.NoDataValue)
			assert.Equal(t, -32768.0, *b.NoDataValue)
			require.NotNil(t, b.Minimum)
			require.NotNil(t, b.Maximum)
			assert.Equal(t, 1.0, *b.Minimum, "the nodata pixel is left out of the statistics")
			assert.Equal(t, 2036.0, *b.Maximum)
		})
	}
}

func TestGDALReadsPixelValues(t *testing.T) {
	bin := gdaltest.Require(t, "gdallocationinfo")
	img := testImage(Deflate)
	path, _ := writeFile(t, img, ramp(img))
	// Pixel (x 5, y 7) holds 705.
	out := gdaltest.Run(t, bin, "-valonly", path, "5", "7")
	assert.Equal(t, "705", strings.TrimSpace(out))
}

func TestDeflateIsSmallerOnSmoothData(t *testing.T) {
	img := Image{Width: 300, Height: 200, West: 0, North: 1, PixelSize: 0.001, RowsPerStrip: 16}
	smooth := func(y int, row []float32) error {
		for x := range row {
			row[x] = float32(500 + 200*math.Sin(float64(x)/40)*math.Cos(float64(y)/30))
		}
		return nil
	}
	var plain, packed bytes.Buffer
	_, err := Encode(&plain, img, smooth, nil)
	require.NoError(t, err)
	img.Compression = Deflate
	_, err = Encode(&packed, img, smooth, nil)
	require.NoError(t, err)
	t.Logf("none %d bytes, deflate+predictor %d bytes (%.2f)", plain.Len(), packed.Len(), float64(packed.Len())/float64(plain.Len()))
	assert.Less(t, packed.Len(), plain.Len())
}

func TestEncodeStopsOnProgressAndRowErrors(t *testing.T) {
	img := testImage(None)
	stop := errors.New("stop")
	var seen []int
	_, err := Encode(&bytes.Buffer{}, img, ramp(img), func(done int) error {
		seen = append(seen, done)
		return stop
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, []int{4}, seen)

	bad := errors.New("bad row")
	_, err = Encode(&bytes.Buffer{}, img, func(y int, row []float32) error { return bad }, nil)
	assert.ErrorIs(t, err, bad)
	assert.ErrorContains(t, err, "row 0")
}

func TestEncodeRejectsBadGeometry(t *testing.T) {
	for name, img := range map[string]Image{
		"empty":      {Width: 0, Height: 3, PixelSize: 1},
		"pixel size": {Width: 3, Height: 3, PixelSize: 0},
		"nan corner": {Width: 3, Height: 3, PixelSize: 1, West: math.NaN()},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Encode(&bytes.Buffer{}, img, ramp(img), nil)
			assert.ErrorContains(t, err, "geotiff:")
		})
	}
}
