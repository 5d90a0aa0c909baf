package jpegdec_test

import (
	"bytes"
	"image/jpeg"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/jpegdec"
)

// BenchmarkDecode decodes a 512² tile (YCbCr 4:2:0 and gray, quality 75,
// the COG driver's default) with this package (to RGB or gray samples)
// and with Go's image/jpeg (to its planes, without colour conversion),
// alternately: compare the two in the same run.
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct {
		name string
		gray bool
	}{{"ycbcr420", false}, {"gray", true}} {
		s := goJPEG(b, 512, 512, c.gray, 75)
		b.Run(c.name+"/jpegdec", func(b *testing.B) {
			var d jpegdec.Decoder
			b.SetBytes(512 * 512)
			for b.Loop() {
				if _, err := d.Decode(s, jpegdec.Options{MaxWidth: 512, MaxHeight: 512}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/image-jpeg", func(b *testing.B) {
			b.SetBytes(512 * 512)
			for b.Loop() {
				if _, err := jpeg.Decode(bytes.NewReader(s)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
