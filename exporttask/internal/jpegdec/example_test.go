package jpegdec_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"

	"github.com/openapi-viewer/viewer/exporttask/internal/jpegdec"
)

// Decode a stream bounded by the size its container declares (here a
// 20 × 10 tile); a Decoder keeps its buffers for the next one. The first
// pixel is 253, not 255, as libjpeg-turbo decodes it too: the red pixel
// rings through its block.
func ExampleDecoder_Decode() {
	m := image.NewRGBA(image.Rect(0, 0, 20, 10))
	for i := range m.Pix {
		m.Pix[i] = 255
	}
	m.Set(3, 3, color.RGBA{200, 30, 30, 255})
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, nil); err != nil {
		panic(err)
	}

	var d jpegdec.Decoder
	img, err := d.Decode(b.Bytes(), jpegdec.Options{MaxWidth: 20, MaxHeight: 10})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%dx%d, %d components, first pixel %v\n", img.Width, img.Height, img.Components, img.Pix[:3])

	_, err = d.Decode(b.Bytes(), jpegdec.Options{MaxWidth: 16, MaxHeight: 16})
	fmt.Println(err)
	// Output:
	// 20x10, 3 components, first pixel [253 253 253]
	// jpegdec: invalid or unsupported JPEG stream: a frame of 20x10 pixels, more than the 16x16 allowed
}
