package geotiff_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// Open reads a file's header and IFDs; a Window then decodes the rows of
// a pixel window. The file here is a 40×30 Int16 COG in 16-pixel tiles,
// written by the cog package, whose pixel (x, y) holds 100*y + x.
func ExampleOpen() {
	img := cog.Image{
		Width: 40, Height: 30,
		BitsPerSample: 16, SampleFormat: 2, // Int16
		West: 34, North: 32, PixelWidth: 0.25, PixelHeight: 0.25,
		NoData: "-32768", BlockSize: 16,
	}
	var tif bytes.Buffer
	_, err := cog.Write(context.Background(), &tif, img, func(y int, buf []byte) error {
		for x := range img.Width {
			binary.LittleEndian.PutUint16(buf[2*x:], uint16(100*y+x))
		}
		return nil
	}, os.TempDir(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}

	f, err := geotiff.Open(bytes.NewReader(tif.Bytes()), int64(tif.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := f.Decodable(); err != nil {
		fmt.Println(err)
		return
	}
	gt, err := f.Geo.GeoTransform()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d×%d, %d-pixel tiles, %d overviews, nodata %s\n", f.Width, f.Height, f.BlockWidth, f.Overviews, f.NoData)
	fmt.Println("geotransform", gt)

	// Four pixels from (14, 5), across a tile edge: little-endian Int16.
	w, err := f.Window(14, 5, 4, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	row := make([]byte, 4*f.SampleBytes())
	if err := w.Row(0, row); err != nil {
		fmt.Println(err)
		return
	}
	values := make([]int16, 4)
	for x := range values {
		values[x] = int16(binary.LittleEndian.Uint16(row[2*x:]))
	}
	fmt.Println("row 5, x 14 to 17:", values)
	// Output:
	// 40×30, 16-pixel tiles, 2 overviews, nodata -32768
	// geotransform [34 0.25 0 32 0 -0.25]
	// row 5, x 14 to 17: [514 515 516 517]
}
