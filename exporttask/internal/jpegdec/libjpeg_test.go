package jpegdec_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
	"github.com/openapi-viewer/viewer/exporttask/internal/jpegdec"
)

// requireTool returns the path of a libjpeg-turbo program (cjpeg,
// djpeg: the library GDAL decodes JPEG with), skipping the test without
// it or failing it when gdaltest.RequireEnv is 1, as gdaltest does.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv(gdaltest.RequireEnv) == "1" {
		t.Fatalf("%s not found and %s=1: install libjpeg-turbo-progs", name, gdaltest.RequireEnv)
	}
	t.Skipf("%s not found (set %s=1 to fail instead): %v", name, gdaltest.RequireEnv, err)
	return ""
}

// testPixels returns w × h pixels of c components: smooth ramps, sharp
// stripes, saturated corners and noise, so that every path of the
// inverse DCT and the clamping is exercised.
func testPixels(w, h, c int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	pix := make([]byte, w*h*c)
	for y := range h {
		for x := range w {
			for k := range c {
				v := (x*255/max(w, 1) + y*(k+1)*3 + k*80) % 256
				switch {
				case (x/5+y/7)%6 == 0:
					v = 255 * ((x + k) % 2)
				case x > w/2 && y > h/2:
					v = r.IntN(256)
				case (x+y)%11 == 0:
					v = 255 - v
				}
				pix[(y*w+x)*c+k] = byte(v)
			}
		}
	}
	return pix
}

func writePNM(t *testing.T, path string, w, h, c int, pix []byte) {
	t.Helper()
	magic := "P6"
	if c == 1 {
		magic = "P5"
	}
	b := append([]byte(fmt.Sprintf("%s\n%d %d\n255\n", magic, w, h)), pix...)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// readPNM reads the binary PGM or PPM djpeg writes.
func readPNM(t *testing.T, b []byte) (w, h, c int, pix []byte) {
	t.Helper()
	fields := make([]string, 0, 4)
	p := 0
	for len(fields) < 4 {
		for p < len(b) && (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' || b[p] == '\t') {
			p++
		}
		q := p
		for q < len(b) && !(b[q] == ' ' || b[q] == '\n' || b[q] == '\r' || b[q] == '\t') {
			q++
		}
		require.Less(t, p, q, "a PNM header")
		fields = append(fields, string(b[p:q]))
		p = q
	}
	p++ // the one whitespace byte after maxval
	c = map[string]int{"P5": 1, "P6": 3}[fields[0]]
	require.NotZero(t, c, "PNM type %q", fields[0])
	w, err := strconv.Atoi(fields[1])
	require.NoError(t, err)
	h, err = strconv.Atoi(fields[2])
	require.NoError(t, err)
	require.Equal(t, "255", fields[3])
	require.Len(t, b[p:], w*h*c)
	return w, h, c, b[p:]
}

// TestEqualsLibjpegTurbo encodes generated images with cjpeg in many
// settings (sizes not a multiple of the MCU, qualities 1 to 100,
// sampling 1×1, 2×1 and 2×2, gray, RGB-as-RGB, restart intervals,
// optimised Huffman tables) and requires every sample decoded to equal
// what djpeg (accurate integer DCT, fancy upsampling: the defaults GDAL
// decodes with) writes.
func TestEqualsLibjpegTurbo(t *testing.T) {
	cjpeg, djpeg := requireTool(t, "cjpeg"), requireTool(t, "djpeg")
	dir := t.TempDir()
	type setting struct {
		w, h  int
		gray  bool
		flags []string
	}
	var cases []setting
	for _, sz := range [][2]int{{1, 1}, {2, 3}, {3, 2}, {4, 5}, {5, 7}, {16, 16}, {17, 9}, {33, 31}, {123, 77}, {256, 190}} {
		for _, s := range []string{"1x1", "2x1", "2x2"} {
			cases = append(cases, setting{sz[0], sz[1], false, []string{"-sample", s}})
		}
		cases = append(cases, setting{sz[0], sz[1], true, []string{"-grayscale"}})
	}
	for _, q := range []string{"1", "10", "30", "50", "75", "90", "95", "100"} {
		for _, s := range []string{"1x1", "2x1", "2x2"} {
			cases = append(cases, setting{131, 97, false, []string{"-quality", q, "-sample", s}})
		}
		cases = append(cases, setting{131, 97, true, []string{"-quality", q, "-grayscale"}})
		cases = append(cases, setting{131, 97, false, []string{"-quality", q, "-rgb"}})
	}
	for _, f := range [][]string{
		{"-restart", "1", "-sample", "2x2"},
		{"-restart", "3B", "-sample", "2x1"},
		{"-restart", "1B", "-grayscale"},
		{"-restart", "2", "-rgb"},
		{"-optimize", "-sample", "2x2"},
		{"-optimize", "-grayscale", "-restart", "5B"},
	} {
		cases = append(cases, setting{150, 70, false, f})
	}
	var d jpegdec.Decoder
	for i, c := range cases {
		name := fmt.Sprintf("%dx%d %s", c.w, c.h, strings.Join(c.flags, " "))
		nc := 3
		if c.gray {
			nc = 1
		}
		src := filepath.Join(dir, fmt.Sprintf("%d.pnm", i))
		writePNM(t, src, c.w, c.h, nc, testPixels(c.w, c.h, nc, uint64(i)))
		jpg := filepath.Join(dir, fmt.Sprintf("%d.jpg", i))
		gdaltest.Run(t, cjpeg, append(append([]string{}, c.flags...), "-outfile", jpg, src)...)
		want := gdaltest.Run(t, djpeg, "-dct", "int", "-pnm", jpg)
		ww, wh, wc, wpix := readPNM(t, []byte(want))
		stream, err := os.ReadFile(jpg)
		require.NoError(t, err)
		got, err := d.Decode(stream, jpegdec.Options{MaxWidth: c.w, MaxHeight: c.h})
		require.NoError(t, err, name)
		require.Equal(t, [3]int{ww, wh, wc}, [3]int{got.Width, got.Height, got.Components}, name)
		if !bytes.Equal(wpix, got.Pix) {
			for k := range wpix {
				if wpix[k] != got.Pix[k] {
					t.Fatalf("%s: pixel %d,%d component %d: libjpeg-turbo %d, decoded %d", name,
						k/wc%ww, k/wc/ww, k%wc, wpix[k], got.Pix[k])
				}
			}
		}
	}
	t.Logf("%d streams decoded exactly as libjpeg-turbo decodes them", len(cases))
}
