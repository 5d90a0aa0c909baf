package jpegdec_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/jpegdec"
)

// goJPEG encodes a w × h test image with Go's encoder (baseline, 4:2:0
// YCbCr or gray) for the tests that need no external tool.
func goJPEG(t testing.TB, w, h int, gray bool, quality int) []byte {
	t.Helper()
	var m image.Image
	if gray {
		g := image.NewGray(image.Rect(0, 0, w, h))
		copy(g.Pix, testPixels(w, h, 1, 1))
		m = g
	} else {
		n := image.NewNRGBA(image.Rect(0, 0, w, h))
		p := testPixels(w, h, 3, 2)
		for i := range w * h {
			n.SetNRGBA(i%w, i/w, color.NRGBA{p[3*i], p[3*i+1], p[3*i+2], 255})
		}
		m = n
	}
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, m, &jpeg.Options{Quality: quality}))
	return b.Bytes()
}

// splitTables turns a whole stream into what a TIFF holds: a tables-only
// stream (SOI, the DQT and DHT segments, EOI) and an abbreviated stream
// without them.
func splitTables(t testing.TB, s []byte) (tables, abbrev []byte) {
	t.Helper()
	tables = []byte{0xFF, 0xD8}
	abbrev = []byte{0xFF, 0xD8}
	p := 2
	for {
		require.Equal(t, byte(0xFF), s[p])
		m := s[p+1]
		if m == 0xDA { // SOS: the rest is the scan
			abbrev = append(abbrev, s[p:]...)
			break
		}
		n := int(s[p+2])<<8 | int(s[p+3])
		seg := s[p : p+2+n]
		if m == 0xDB || m == 0xC4 {
			tables = append(tables, seg...)
		} else {
			abbrev = append(abbrev, seg...)
		}
		p += 2 + n
	}
	return append(tables, 0xFF, 0xD9), abbrev
}

// TestTablesStream decodes an abbreviated stream with its tables given
// apart, as in a TIFF, to the same samples as the whole stream, and fails
// without the tables.
func TestTablesStream(t *testing.T) {
	for _, gray := range []bool{false, true} {
		whole := goJPEG(t, 100, 60, gray, 80)
		tables, abbrev := splitTables(t, whole)
		var d jpegdec.Decoder
		a, err := d.Decode(whole, jpegdec.Options{MaxWidth: 100, MaxHeight: 60})
		require.NoError(t, err)
		want := bytes.Clone(a.Pix)
		b, err := d.Decode(abbrev, jpegdec.Options{Tables: tables, MaxWidth: 100, MaxHeight: 60})
		require.NoError(t, err)
		require.Equal(t, want, b.Pix)
		_, err = d.Decode(abbrev, jpegdec.Options{MaxWidth: 100, MaxHeight: 60})
		require.ErrorIs(t, err, jpegdec.ErrFormat)
		require.ErrorContains(t, err, "not defined")
	}
}

// TestNearGoDecoder checks the decoder against Go's image/jpeg on a gray
// stream, without any external tool: Go's inverse DCT differs slightly
// from libjpeg's, so samples agree within 3, not exactly.
func TestNearGoDecoder(t *testing.T) {
	s := goJPEG(t, 77, 45, true, 90)
	m, err := jpeg.Decode(bytes.NewReader(s))
	require.NoError(t, err)
	var d jpegdec.Decoder
	got, err := d.Decode(s, jpegdec.Options{MaxWidth: 77, MaxHeight: 45})
	require.NoError(t, err)
	require.Equal(t, 1, got.Components)
	g := m.(*image.Gray)
	for y := range 45 {
		for x := range 77 {
			a, b := int(g.Pix[y*g.Stride+x]), int(got.Pix[y*77+x])
			require.LessOrEqual(t, max(a-b, b-a), 3, "pixel %d,%d", x, y)
		}
	}
}

// TestHostile: sizes beyond the bounds are refused before allocation,
// every truncation of a valid stream short of its EOI is an error (never a
// panic), and so are corrupt segments.
func TestHostile(t *testing.T) {
	var d jpegdec.Decoder
	s := goJPEG(t, 64, 48, false, 75)

	_, err := d.Decode(s, jpegdec.Options{MaxWidth: 63, MaxHeight: 48})
	require.ErrorContains(t, err, "more than the 63x48 allowed")
	_, err = d.Decode(s, jpegdec.Options{})
	require.Error(t, err)

	// A frame claiming 65535² pixels: refused without allocating its
	// 12 GB of planes.
	huge := bytes.Clone(s)
	i := bytes.Index(huge, []byte{0xFF, 0xC0})
	require.Positive(t, i)
	copy(huge[i+5:], []byte{0xFF, 0xFF, 0xFF, 0xFF})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = d.Decode(huge, jpegdec.Options{MaxWidth: 512, MaxHeight: 512})
	runtime.ReadMemStats(&after)
	require.ErrorContains(t, err, "65535x65535")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")

	// Without its EOI the stream decodes whole (libjpeg warns and goes on).
	whole, err := d.Decode(s, jpegdec.Options{MaxWidth: 64, MaxHeight: 48})
	require.NoError(t, err)
	want := bytes.Clone(whole.Pix)
	noEOI, err := d.Decode(s[:len(s)-2], jpegdec.Options{MaxWidth: 64, MaxHeight: 48})
	require.NoError(t, err)
	require.Equal(t, want, noEOI.Pix)

	for n := range len(s) - 2 { // every shorter prefix
		_, err := d.Decode(s[:n], jpegdec.Options{MaxWidth: 64, MaxHeight: 48})
		require.Error(t, err, "a stream cut to %d of %d bytes", n, len(s))
		require.True(t, errors.Is(err, jpegdec.ErrFormat), "%d bytes: %v", n, err)
	}

	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"not JPEG", func(b []byte) []byte { return []byte("GIF89a") }, "SOI"},
		{"progressive", func(b []byte) []byte { b[bytes.Index(b, []byte{0xFF, 0xC0})+1] = 0xC2; return b }, "progressive"},
		{"12-bit", func(b []byte) []byte { b[bytes.Index(b, []byte{0xFF, 0xC0})+4] = 12; return b }, "12-bit"},
		{"zero width", func(b []byte) []byte {
			i := bytes.Index(b, []byte{0xFF, 0xC0})
			b[i+7], b[i+8] = 0, 0
			return b
		}, "a frame of 0x48"},
		{"overfull Huffman table", func(b []byte) []byte {
			i := bytes.Index(b, []byte{0xFF, 0xC4})
			b[i+5] = 3 // three 1-bit codes
			return b
		}, "more codes of length 1"},
		{"segment past the end", func(b []byte) []byte {
			i := bytes.Index(b, []byte{0xFF, 0xDB})
			b[i+2], b[i+3] = 0xFF, 0xF0
			return b
		}, "beyond the stream"},
	} {
		_, err := d.Decode(c.edit(bytes.Clone(s)), jpegdec.Options{MaxWidth: 64, MaxHeight: 48})
		require.ErrorIs(t, err, jpegdec.ErrFormat, c.name)
		require.ErrorContains(t, err, c.want, c.name)
	}
}

// FuzzDecode: no input panics or yields an image beyond the bounds.
func FuzzDecode(f *testing.F) {
	for _, gray := range []bool{false, true} {
		s := goJPEG(f, 40, 24, gray, 60)
		f.Add(s, []byte(nil))
		tables, abbrev := splitTables(f, s)
		f.Add(abbrev, tables)
	}
	f.Fuzz(func(t *testing.T, s, tables []byte) {
		var d jpegdec.Decoder
		m, err := d.Decode(s, jpegdec.Options{Tables: tables, MaxWidth: 64, MaxHeight: 64})
		if err != nil {
			return
		}
		if m.Width > 64 || m.Height > 64 || len(m.Pix) != m.Width*m.Height*m.Components {
			t.Fatalf("an image of %dx%d×%d in %d bytes", m.Width, m.Height, m.Components, len(m.Pix))
		}
	})
}
