package cog_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
)

// A 1200×800 Int16 elevation grid at 1/1200° per pixel: the full
// resolution in 512-pixel tiles plus two overviews (600×400, 300×200).
func ExampleWrite() {
	img := cog.Image{
		Width: 1200, Height: 800,
		BitsPerSample: 16, SampleFormat: 2, // Int16
		West: 34, North: 32,
		PixelWidth: 1.0 / 1200, PixelHeight: 1.0 / 1200,
		NoData: "-32768",
	}
	if err := img.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	rows := func(y int, buf []byte) error {
		for x := range img.Width {
			binary.LittleEndian.PutUint16(buf[2*x:], uint16(int16(x+y)))
		}
		return nil
	}
	var out bytes.Buffer
	n, err := cog.Write(context.Background(), &out, img, rows, os.TempDir(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out.Bytes()[:2]), n == int64(out.Len()), n <= cog.MaxSize(img))
	fmt.Println(string(out.Bytes()[8:38]))
	// Output:
	// II true true
	// GDAL_STRUCTURAL_METADATA_SIZE=
}
