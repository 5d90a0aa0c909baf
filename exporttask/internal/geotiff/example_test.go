package geotiff_test

import (
	"bytes"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

func ExampleEncode() {
	img := geotiff.Image{Width: 4, Height: 3, West: 34, North: 32, PixelSize: 0.25, NoData: -32768}
	var buf bytes.Buffer
	n, err := geotiff.Encode(&buf, img, func(y int, row []float32) error {
		for x := range row {
			row[x] = float32(10*y + x)
		}
		return nil
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	size, _ := geotiff.Size(img)
	fmt.Println(string(buf.Bytes()[:2]), n == size)
	// Output: II true
}
