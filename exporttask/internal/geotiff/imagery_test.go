package geotiff

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// testImagePNG writes a w×h PNG: smooth colour ramps with a few sharp
// stripes, and, when transparent, a clear band along the left and a
// half-transparent square. gray gives a gray image, paletted one of 64
// colours.
func testImagePNG(t *testing.T, w, h int, kind string) string {
	t.Helper()
	var m image.Image
	col := func(x, y int) color.NRGBA {
		r := uint8(x * 255 / w)
		g := uint8(y * 255 / h)
		b := uint8((x + y) % 256)
		if (x/37)%5 == 0 {
			r, g, b = 250, 20, 30
		}
		a := uint8(255)
		if kind == "rgba" && x < w/8 {
			a = 0
		}
		if kind == "rgba" && x > w/2 && x < w/2+40 && y > h/2 && y < h/2+40 {
			a = 128
		}
		return color.NRGBA{r, g, b, a}
	}
	switch kind {
	case "gray":
		g := image.NewGray(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				v := uint8((x*3 + y) % 256)
				if x < w/10 {
					v = 0 // the nodata value of the gray tests
				}
				g.SetGray(x, y, color.Gray{v})
			}
		}
		m = g
	case "palette":
		pal := color.Palette{}
		for i := range 64 {
			pal = append(pal, color.RGBA{uint8(i * 4), uint8(255 - i*4), uint8(i * 7 % 256), 255})
		}
		p := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for y := range h {
			for x := range w {
				p.SetColorIndex(x, y, uint8((x/9+y/13)%64))
			}
		}
		m = p
	default:
		n := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				n.SetNRGBA(x, y, col(x, y))
			}
		}
		m = n
	}
	path := filepath.Join(t.TempDir(), kind+".png")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, m))
	require.NoError(t, f.Close())
	return path
}

// gdalRGBA reads overview level ovr (-1 the full image) of path with GDAL
// as RGBA rows: gray and palette expanded, alpha from the alpha band or
// the mask (255 without either).
func gdalRGBA(t *testing.T, path string, bands, ovr int, palette bool) (w, h int, pix []byte) {
	t.Helper()
	args := []string{"-of", "ENVI", "-co", "INTERLEAVE=BIP"}
	if ovr >= 0 {
		args = append(args, "-oo", "OVERVIEW_LEVEL="+strconv.Itoa(ovr))
	}
	switch {
	case palette:
		args = append(args, "-expand", "rgba")
	case bands == 1:
		args = append(args, "-b", "1", "-b", "1", "-b", "1", "-b", "mask")
	case bands == 3:
		args = append(args, "-b", "1", "-b", "2", "-b", "3", "-b", "mask")
	default:
		args = append(args, "-b", "1", "-b", "2", "-b", "3", "-b", "4")
	}
	out := translate(t, path, fmt.Sprintf("ref%d.img", ovr), args...)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	f := openFileOf(t, path)
	img, err := f.Imagery()
	require.NoError(t, err)
	lv := img.Levels[ovr+1]
	require.Equal(t, lv.Width*lv.Height*4, len(b), "GDAL's level %d", ovr)
	return lv.Width, lv.Height, b
}

func openFileOf(t *testing.T, path string) *File { return openFile(t, path) }

// readImagery decodes every block of level k into one RGBA image.
func readImagery(t *testing.T, img *Imagery, k int) []byte {
	t.Helper()
	lv := img.Levels[k]
	out := make([]byte, lv.Width*lv.Height*4)
	blk := make([]byte, lv.BlockWidth*lv.BlockHeight*4)
	r := img.NewReader()
	for by := range lv.BlocksDown() {
		for bx := range lv.BlocksAcross() {
			require.NoError(t, r.Block(lv, bx, by, blk))
			for y := by * lv.BlockHeight; y < min((by+1)*lv.BlockHeight, lv.Height); y++ {
				x0, x1 := bx*lv.BlockWidth, min((bx+1)*lv.BlockWidth, lv.Width)
				copy(out[(y*lv.Width+x0)*4:(y*lv.Width+x1)*4], blk[((y-by*lv.BlockHeight)*lv.BlockWidth)*4:])
			}
		}
	}
	return out
}

// TestImageryReadsWhatGDALReads decodes 8-bit imagery GDAL wrote in many
// layouts (JPEG YCbCr COG with overviews, JPEG YCbCr and RGB tiles and
// strips of qualities 10 to 100 and partial edge blocks, gray JPEG, JPEG
// with a mask, planar RGBA, palette, gray with nodata, LZW strips with a
// predictor, PackBits) and requires every level's RGBA to equal, sample
// for sample, what GDAL reads from the same file (JPEG blocks included:
// they are decoded as libjpeg-turbo decodes them).
func TestImageryReadsWhatGDALReads(t *testing.T) {
	rgb := testImagePNG(t, 700, 500, "rgb")
	rgba := testImagePNG(t, 700, 500, "rgba")
	gray := testImagePNG(t, 700, 500, "gray")
	pal := testImagePNG(t, 700, 500, "palette")
	odd := testImagePNG(t, 333, 211, "rgb") // partial edge blocks everywhere
	oddGray := testImagePNG(t, 333, 211, "gray")
	geo := []string{"-a_srs", "EPSG:4326", "-a_ullr", "34", "32", "35", "31.3"}
	cases := []struct {
		name, src string
		args      []string
		bands     int
		palette   bool
		kind      string
		jpeg      bool
	}{
		{"jpeg ycbcr cog", rgb, []string{"-of", "COG", "-co", "COMPRESS=JPEG", "-co", "BLOCKSIZE=256", "-b", "1", "-b", "2", "-b", "3"}, 3, false, "rgb", true},
		{"jpeg ycbcr gtiff", rgb, []string{"-co", "COMPRESS=JPEG", "-co", "PHOTOMETRIC=YCBCR", "-co", "TILED=YES", "-b", "1", "-b", "2", "-b", "3"}, 3, false, "rgb", true},
		{"jpeg rgb strips", rgb, []string{"-co", "COMPRESS=JPEG", "-b", "1", "-b", "2", "-b", "3"}, 3, false, "rgb", true},
		{"jpeg ycbcr q10 odd tiles", odd, []string{"-co", "COMPRESS=JPEG", "-co", "JPEG_QUALITY=10", "-co", "PHOTOMETRIC=YCBCR", "-co", "TILED=YES", "-co", "BLOCKXSIZE=128", "-co", "BLOCKYSIZE=64"}, 3, false, "rgb", true},
		{"jpeg ycbcr q100 strips", odd, []string{"-co", "COMPRESS=JPEG", "-co", "JPEG_QUALITY=100", "-co", "PHOTOMETRIC=YCBCR", "-co", "BLOCKYSIZE=16"}, 3, false, "rgb", true},
		{"jpeg rgb q95 tiles", odd, []string{"-co", "COMPRESS=JPEG", "-co", "JPEG_QUALITY=95", "-co", "PHOTOMETRIC=RGB", "-co", "TILED=YES", "-co", "BLOCKXSIZE=64", "-co", "BLOCKYSIZE=64"}, 3, false, "rgb", true},
		{"jpeg gray tiles", oddGray, []string{"-co", "COMPRESS=JPEG", "-co", "TILED=YES", "-co", "BLOCKXSIZE=64", "-co", "BLOCKYSIZE=32"}, 1, false, "gray", true},
		{"jpeg gray cog q30", gray, []string{"-of", "COG", "-co", "COMPRESS=JPEG", "-co", "QUALITY=30", "-co", "BLOCKSIZE=256"}, 1, false, "gray", true},
		{"jpeg with mask", rgba, []string{"-of", "COG", "-co", "COMPRESS=JPEG", "-co", "BLOCKSIZE=256"}, 3, false, "rgb", true},
		{"rgba planar deflate", rgba, []string{"-co", "COMPRESS=DEFLATE", "-co", "TILED=YES", "-co", "INTERLEAVE=BAND"}, 4, false, "rgba", false},
		{"rgba lzw predictor strips", rgba, []string{"-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"}, 4, false, "rgba", false},
		{"palette", pal, []string{"-co", "COMPRESS=PACKBITS", "-co", "TILED=YES"}, 1, true, "palette", false},
		{"gray nodata cog", gray, []string{"-of", "COG", "-co", "BLOCKSIZE=256", "-a_nodata", "0"}, 1, false, "gray", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := translate(t, c.src, "img.tif", append(append([]string{}, geo...), c.args...)...)
			f := openFile(t, path)
			img, err := f.Imagery()
			require.NoError(t, err)
			require.Equal(t, c.kind, img.Kind)
			require.Equal(t, c.jpeg, img.JPEG)
			for k := range img.Levels {
				w, h, want := gdalRGBA(t, path, c.bands, k-1, c.palette)
				got := readImagery(t, img, k)
				for i := range want {
					if want[i] != got[i] {
						require.Failf(t, "sample differs", "level %d (%dx%d) pixel %d,%d band %d: GDAL %d, read %d",
							k, w, h, i/4%w, i/4/w, i%4, want[i], got[i])
					}
				}
			}
			if c.name == "jpeg ycbcr cog" || c.name == "gray nodata cog" {
				require.Greater(t, len(img.Levels), 1, "a COG of 700x500 in 256 tiles has overviews")
			}
			if c.name == "jpeg with mask" {
				require.True(t, img.Masked)
			}
		})
	}
}
