package geotiff

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// parseFloat parses a GDAL_NODATA text: a decimal number, or nan, inf,
// -inf in any case.
func parseFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "nan", "-nan":
		return math.NaN(), true
	case "inf", "+inf", "infinity":
		return math.Inf(1), true
	case "-inf", "-infinity":
		return math.Inf(-1), true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

// Window reads rows of the first band of a pixel window of a [File], in
// order from top to bottom, decoding only the blocks the window meets and
// each of them once: it keeps the decoded blocks of one block row. It is
// not safe for concurrent use.
type Window struct {
	f                   *File
	x0, y0, w, h        int
	bx0, bx1            int // the block columns met, inclusive
	d                   *blockDecoder
	by                  int      // the block row cached, -1 for none
	cache               [][]byte // decoded blocks bx0..bx1 of block row by
	bytesPerSampleInRow int
}

// Window returns a reader of the pixels [x0, x0+w) × [y0, y0+h), which
// must lie inside the image; it fails when [File.Decodable] does.
func (f *File) Window(x0, y0, w, h int) (*Window, error) {
	if err := f.Decodable(); err != nil {
		return nil, err
	}
	if w <= 0 || h <= 0 || x0 < 0 || y0 < 0 || x0 > f.Width-w || y0 > f.Height-h {
		return nil, errorf("window %dx%d at (%d, %d) is not inside the %dx%d image", w, h, x0, y0, f.Width, f.Height)
	}
	bx0, bx1 := x0/f.BlockWidth, (x0+w-1)/f.BlockWidth
	return &Window{
		f: f, x0: x0, y0: y0, w: w, h: h, bx0: bx0, bx1: bx1,
		d: newBlockDecoder(f), by: -1, cache: make([][]byte, bx1-bx0+1),
		bytesPerSampleInRow: f.SampleBytes(),
	}, nil
}

// StoredBytes returns the stored (compressed) bytes of the blocks the
// window meets: what reading it costs.
func (w *Window) StoredBytes() int64 {
	f := w.f
	var n int64
	for by := w.y0 / f.BlockHeight; by <= (w.y0+w.h-1)/f.BlockHeight; by++ {
		for bx := w.bx0; bx <= w.bx1; bx++ {
			n += f.BlockBytes(bx, by)
		}
	}
	return n
}

// BytesRead returns the bytes read from the file so far.
func (w *Window) BytesRead() int64 { return w.d.read }

// Row copies row y of the window (0 the top) into dst, w.Width samples
// little-endian. Rows are best read in increasing order: going back to an
// earlier block row decodes its blocks again.
func (w *Window) Row(y int, dst []byte) error {
	f := w.f
	if y < 0 || y >= w.h {
		return errorf("row %d is outside the window's %d rows", y, w.h)
	}
	sy := w.y0 + y
	by := sy / f.BlockHeight
	if by != w.by {
		w.by = -1
		for i := range w.cache {
			b, err := w.d.decode(w.bx0+i, by)
			if err != nil {
				return err
			}
			w.cache[i] = append(w.cache[i][:0], b...)
		}
		w.by = by
	}
	bps := w.bytesPerSampleInRow
	r := sy - by*f.BlockHeight
	o := 0
	for i, blk := range w.cache {
		bx := w.bx0 + i
		c0 := max(w.x0, bx*f.BlockWidth)
		c1 := min(w.x0+w.w, (bx+1)*f.BlockWidth)
		start := (r*f.BlockWidth + c0 - bx*f.BlockWidth) * bps
		o += copy(dst[o:], blk[start:start+(c1-c0)*bps])
	}
	return nil
}

// Block decodes block (bx, by) of the first band: BlockWidth samples per
// row, little-endian, as many rows as the block holds pixels (a short
// last strip has fewer). Blocks of a tiled image reach beyond the image's
// right and bottom edges; those pixels are padding. The result is valid
// until the next call on the same [BlockReader].
func (b *BlockReader) Block(bx, by int) ([]byte, error) { return b.d.decode(bx, by) }

// BlockReader decodes whole blocks of a [File]; it is not safe for
// concurrent use.
type BlockReader struct{ d *blockDecoder }

// Blocks returns a BlockReader, or fails when [File.Decodable] does.
func (f *File) Blocks() (*BlockReader, error) {
	if err := f.Decodable(); err != nil {
		return nil, err
	}
	return &BlockReader{d: newBlockDecoder(f)}, nil
}

// BytesRead returns the bytes read from the file so far.
func (b *BlockReader) BytesRead() int64 { return b.d.read }

// Valid returns a function reporting whether sample i of a decoded block
// or row (little-endian samples of the first band) holds data: it is not
// the GDAL_NODATA value (compared in the sample type, as GDAL does) and,
// for floating-point samples, not NaN.
func (f *File) Valid() func(b []byte, i int) bool {
	t, _ := f.SampleType()
	var nd [8]byte
	has := f.HasNoData && EncodeValue(t, f.NoData, nd[:])
	switch t {
	case Int8, UInt8:
		return func(b []byte, i int) bool { return !has || b[i] != nd[0] }
	case Int16, UInt16:
		v := binary.LittleEndian.Uint16(nd[:])
		return func(b []byte, i int) bool { return !has || binary.LittleEndian.Uint16(b[2*i:]) != v }
	case Int32, UInt32:
		v := binary.LittleEndian.Uint32(nd[:])
		return func(b []byte, i int) bool { return !has || binary.LittleEndian.Uint32(b[4*i:]) != v }
	case Float32:
		v := math.Float32frombits(binary.LittleEndian.Uint32(nd[:]))
		return func(b []byte, i int) bool {
			x := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			return x == x && (!has || x != v)
		}
	case Float64:
		v := math.Float64frombits(binary.LittleEndian.Uint64(nd[:]))
		return func(b []byte, i int) bool {
			x := math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			return x == x && (!has || x != v)
		}
	}
	return func([]byte, int) bool { return false }
}
