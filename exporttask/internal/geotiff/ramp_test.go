package geotiff

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
)

// rampNoData is the nodata value of rampCOG's files.
const rampNoData = -32768

// rampCOG returns a Float32 Cloud Optimized GeoTIFF of width×height
// pixels in 16-pixel tiles, written by the cog package (the module's TIFF
// writer): pixel (x, y) holds 100*y + x, except the top-left one, which
// holds the nodata value.
func rampCOG(tb testing.TB, width, height int) []byte {
	tb.Helper()
	img := cog.Image{
		Width: width, Height: height,
		BitsPerSample: 32, SampleFormat: 3, // Float32
		West: 34, North: 32, PixelWidth: 0.01, PixelHeight: 0.01,
		NoData: "-32768", BlockSize: 16,
	}
	rows := func(y int, buf []byte) error {
		for x := range width {
			v := float32(100*y + x)
			if x == 0 && y == 0 {
				v = rampNoData
			}
			binary.LittleEndian.PutUint32(buf[4*x:], math.Float32bits(v))
		}
		return nil
	}
	var out bytes.Buffer
	_, err := cog.Write(context.Background(), &out, img, rows, tb.TempDir(), nil)
	require.NoError(tb, err)
	return out.Bytes()
}
