package cog

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
)

// DefaultBlockSize is the tile width and height when Image.BlockSize is 0,
// as with GDAL's COG driver.
const DefaultBlockSize = 512

// Image describes a single-band, north-up grid in EPSG:4326.
type Image struct {
	Width, Height int // pixels, both positive
	// BitsPerSample is 8, 16, 32 or 64; with SampleFormat it gives the
	// sample type: Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32 or
	// Float64 (64 bits only as a float).
	BitsPerSample int
	// SampleFormat is TIFF's: 1 unsigned integer, 2 signed integer, 3
	// IEEE float.
	SampleFormat int
	// West and North are the top-left corner of the top-left pixel,
	// degrees.
	West, North float64
	// PixelWidth and PixelHeight are degrees per pixel, both positive.
	PixelWidth, PixelHeight float64
	// NoData is the GDAL_NODATA text, "" (the default) for none. It must
	// parse as a number ("nan" and "inf" included). For the float types it
	// is written as given (without surrounding spaces); for the integer
	// types Write stores what GDAL's GeoTIFF writer stores for a value the
	// type cannot hold: rounded to the nearest integer, halves up, clamped
	// to the type's range, 0 for NaN (so "-9999" on Byte becomes "0").
	NoData string
	// BlockSize is the tile width and height, a multiple of 16 from 16 to
	// 4096; 0 (the default) means DefaultBlockSize.
	BlockSize int
}

// Rows fills buf (Width*BitsPerSample/8 bytes, little-endian samples) with
// row y, 0 being the north edge; Write calls it for y = 0..Height-1 in
// order, once each. buf's content on entry is unspecified.
type Rows func(y int, buf []byte) error

func (img Image) kind() kind { return kindOf(img.BitsPerSample, img.SampleFormat) }

func (img Image) blockSize() int {
	if img.BlockSize == 0 {
		return DefaultBlockSize
	}
	return img.BlockSize
}

// noDataText is the GDAL_NODATA text Write writes, "" for none. For the
// integer types it is the value GDAL's GeoTIFF writer would store: rounded
// to the nearest integer (halves up), clamped to the type's range, 0 for
// NaN; for the float types it is NoData without surrounding spaces.
func (img Image) noDataText() string {
	text := strings.TrimSpace(img.NoData)
	k := img.kind()
	if text == "" || k.float() {
		return text
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return text
	}
	if math.IsNaN(v) {
		v = 0
	}
	lo, hi := k.bounds()
	v = math.Max(lo, math.Min(hi, math.Floor(v+0.5)))
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// noData returns whether img has a nodata value and that value as pixels
// are compared with it (float32 pixels with the value as a float32, as
// GDAL compares them).
func (img Image) noData() (bool, float64) {
	text := img.noDataText()
	if text == "" {
		return false, 0
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return false, 0
	}
	return true, img.kind().quantize(v)
}

// Validate reports the first problem with img, naming the field.
func (img Image) Validate() error {
	const maxSide = math.MaxInt32
	k := img.kind()
	switch {
	case img.Width <= 0 || img.Height <= 0 || img.Width > maxSide || img.Height > maxSide:
		return fmt.Errorf("cog: Width×Height %d×%d: each must be from 1 to %d", img.Width, img.Height, maxSide)
	case k == kindInvalid:
		return fmt.Errorf("cog: BitsPerSample %d with SampleFormat %d is not one of the supported sample types (8, 16 or 32 bits with format 1 or 2; 32 or 64 bits with format 3)", img.BitsPerSample, img.SampleFormat)
	case math.IsNaN(img.West) || math.IsInf(img.West, 0) || math.IsNaN(img.North) || math.IsInf(img.North, 0):
		return fmt.Errorf("cog: West %v, North %v: the corner must be finite", img.West, img.North)
	case !(img.PixelWidth > 0) || math.IsInf(img.PixelWidth, 0) || !(img.PixelHeight > 0) || math.IsInf(img.PixelHeight, 0):
		return fmt.Errorf("cog: PixelWidth %v, PixelHeight %v: both must be positive and finite", img.PixelWidth, img.PixelHeight)
	case img.BlockSize != 0 && (img.BlockSize < 16 || img.BlockSize > 4096 || img.BlockSize%16 != 0):
		return fmt.Errorf("cog: BlockSize %d: must be 0 or a multiple of 16 from 16 to 4096", img.BlockSize)
	}
	if img.NoData != "" {
		if _, err := strconv.ParseFloat(strings.TrimSpace(img.NoData), 64); err != nil {
			return fmt.Errorf("cog: NoData %q is not a number", img.NoData)
		}
	}
	return nil
}

// levelSize is the size of one resolution level.
type levelSize struct{ w, h int }

// levels returns the full-resolution size followed by the overview sizes:
// halved, rounding down but never below 1, until the level fits in one tile
// (GDAL's COG driver does the same).
func (img Image) levels() []levelSize {
	bs := img.blockSize()
	out := []levelSize{{img.Width, img.Height}}
	for k := 1; ; k++ {
		last := out[len(out)-1]
		if last.w <= bs && last.h <= bs {
			return out
		}
		out = append(out, levelSize{max(1, img.Width>>k), max(1, img.Height>>k)})
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// MaxSize returns an upper bound of the bytes Write produces for img (0
// when img is not valid): every tile stored as Deflate's worst case, in a
// BigTIFF. Real files of smooth data are much smaller.
func MaxSize(img Image) int64 {
	if img.Validate() != nil {
		return 0
	}
	bs := int64(img.blockSize())
	tileBytes := bs * bs * int64(img.BitsPerSample/8)
	worst := tileBytes + tileBytes/64 + 64 + 8 // deflate bound, leader, trailer
	f := format{big: true}
	head, _ := f.header()
	total := int64(len(head))
	for i, l := range img.levels() {
		n := int64(ceilDiv(l.w, int(bs))) * int64(ceilDiv(l.h, int(bs)))
		total += f.ifdSize(img.fields(f, i, make([]uint64, n), make([]uint64, n))) + n*worst
	}
	return total
}

// fields returns the IFD entries of level i (0 is full resolution), sorted
// by tag.
func (img Image) fields(f format, i int, offs, counts []uint64) []field {
	l := img.levels()[i]
	bs := uint32(img.blockSize())
	fs := []field{
		longs(tagImageWidth, uint32(l.w)),
		longs(tagImageLength, uint32(l.h)),
		shorts(tagBitsPerSample, uint16(img.BitsPerSample)),
		shorts(tagCompression, 8), // Deflate
		shorts(tagPhotometric, 1), // BlackIsZero
		shorts(tagSamplesPerPixel, 1),
		shorts(tagPlanarConfig, 1),
		shorts(tagPredictor, img.kind().predictor()),
		longs(tagTileWidth, bs),
		longs(tagTileLength, bs),
		offsets(tagTileOffsets, f.big, offs),
		offsets(tagTileByteCounts, f.big, counts),
		shorts(tagSampleFormat, uint16(img.SampleFormat)),
	}
	if i > 0 {
		fs = append(fs, longs(tagNewSubfileType, 1)) // reduced-resolution image
	} else {
		fs = append(fs,
			doubles(tagModelPixelScale, img.PixelWidth, img.PixelHeight, 0),
			doubles(tagModelTiepoint, 0, 0, 0, img.West, img.North, 0),
			// GeoKey directory version 1.1.0 with three keys:
			// GTModelType geographic, GTRasterType PixelIsArea,
			// GeographicType WGS 84.
			shorts(tagGeoKeyDirectory, 1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326),
		)
	}
	if text := img.noDataText(); text != "" {
		fs = append(fs, ascii(tagGDALNoData, text))
	}
	return sortFields(fs)
}

// Write writes img as a Cloud Optimized GeoTIFF to w and returns the bytes
// written: tiled, Deflate with a predictor, overviews down to one tile, and
// GDAL's COG layout. The tiles are compressed into scratch files in
// scratchDir as the rows arrive (memory holds about one row of tiles per
// level); then the header, every IFD and the tiles go to w in one pass. The
// scratch files are removed before Write returns. progress, which may be
// nil, is told the rows read so far after every row of tiles; its error, one
// from rows, or ctx's end stops the write and is returned.
func Write(ctx context.Context, w io.Writer, img Image, rows Rows, scratchDir string, progress func(rowsDone int) error) (int64, error) {
	return write(ctx, w, img, rows, scratchDir, progress, false)
}

// write is Write with BigTIFF forced when big is set (for tests; Write
// chooses BigTIFF only past 4 GiB).
func write(ctx context.Context, w io.Writer, img Image, rows Rows, scratchDir string, progress func(rowsDone int) error, big bool) (n int64, err error) {
	if err := img.Validate(); err != nil {
		return 0, err
	}
	p, err := newPyramid(img, scratchDir)
	if err != nil {
		return 0, err
	}
	defer func() {
		if rerr := p.remove(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	buf := make([]byte, img.Width*img.BitsPerSample/8)
	bs := img.blockSize()
	for y := range img.Height {
		if err := ctx.Err(); err != nil {
			return 0, fmt.Errorf("cog: stopped at row %d: %w", y, err)
		}
		if err := rows(y, buf); err != nil {
			return 0, fmt.Errorf("cog: row %d: %w", y, err)
		}
		if err := p.levels[0].addRow(y, buf); err != nil {
			return 0, err
		}
		if progress != nil && ((y+1)%bs == 0 || y+1 == img.Height) {
			if err := progress(y + 1); err != nil {
				return 0, fmt.Errorf("cog: progress at row %d: %w", y+1, err)
			}
		}
	}
	return p.writeTo(ctx, w, big)
}

// pyramid is every level being written.
type pyramid struct {
	img    Image
	levels []*level
}

// level is one resolution level: its current row of tiles and the scratch
// file its finished tiles go to, each with leader and trailer.
type level struct {
	img     Image
	w, h    int
	tilesX  int
	band    []byte // BlockSize rows of tilesX·BlockSize samples
	rowLen  int    // bytes of one band row
	enc     []*encoder
	data    [][]byte
	errs    []error
	file    *os.File
	bw      *bufio.Writer
	written int64
	pos     []uint64 // each tile's data offset in the scratch file
	sizes   []uint64 // each tile's compressed size
	vals    []float64
	raw     []byte
	down    *reducer
	next    *level
}

// encoder compresses one tile at a time; a level has one per tile it
// compresses in parallel.
type encoder struct {
	tile, tmp []byte
	zbuf      bytes.Buffer
	zw        *zlib.Writer
}

func newEncoder(img Image) *encoder {
	bs, sample := img.blockSize(), img.BitsPerSample/8
	e := &encoder{tile: make([]byte, bs*bs*sample), tmp: make([]byte, bs*sample)}
	e.zw = zlib.NewWriter(&e.zbuf)
	return e
}

// encode returns tile column tx of band (rows of rowLen bytes) after the
// predictor and Deflate; the bytes are valid until the next call.
func (e *encoder) encode(img Image, band []byte, rowLen, tx int) ([]byte, error) {
	bs := img.blockSize()
	k := img.kind()
	tileRow := bs * img.BitsPerSample / 8
	for r := range bs {
		row := e.tile[r*tileRow : (r+1)*tileRow]
		copy(row, band[r*rowLen+tx*tileRow:])
		k.predict(row, e.tmp)
	}
	e.zbuf.Reset()
	e.zw.Reset(&e.zbuf)
	if _, err := e.zw.Write(e.tile); err != nil {
		return nil, fmt.Errorf("cog: compressing a tile: %w", err)
	}
	if err := e.zw.Close(); err != nil {
		return nil, fmt.Errorf("cog: compressing a tile: %w", err)
	}
	return e.zbuf.Bytes(), nil
}

func newPyramid(img Image, scratchDir string) (*pyramid, error) {
	p := &pyramid{img: img}
	k := img.kind()
	hasND, nd := img.noData()
	bs := img.blockSize()
	sample := img.BitsPerSample / 8
	sizes := img.levels()
	for i, s := range sizes {
		f, err := os.CreateTemp(scratchDir, fmt.Sprintf("cog-level%d-*.tmp", i))
		if err != nil {
			_ = p.remove()
			return nil, fmt.Errorf("cog: creating a scratch file: %w", err)
		}
		l := &level{
			img: img, w: s.w, h: s.h, tilesX: ceilDiv(s.w, bs),
			file: f, bw: bufio.NewWriterSize(f, 1<<16),
		}
		l.rowLen = l.tilesX * bs * sample
		l.band = make([]byte, bs*l.rowLen)
		workers := max(1, min(l.tilesX, runtime.GOMAXPROCS(0)))
		l.data, l.errs = make([][]byte, workers), make([]error, workers)
		for range workers {
			l.enc = append(l.enc, newEncoder(img))
		}
		n := l.tilesX * ceilDiv(s.h, bs)
		l.pos = make([]uint64, 0, n)
		l.sizes = make([]uint64, 0, n)
		if i > 0 {
			l.raw = make([]byte, s.w*sample)
			prev := p.levels[i-1]
			prev.vals = make([]float64, prev.w)
			prev.down = newReducer(k, hasND, nd, prev.w, prev.h, s.w, s.h)
			prev.next = l
		}
		p.levels = append(p.levels, l)
	}
	return p, nil
}

// remove closes and deletes the scratch files.
func (p *pyramid) remove() error {
	var errs []error
	for _, l := range p.levels {
		if l.file == nil {
			continue
		}
		if err := l.file.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
			errs = append(errs, err)
		}
		if err := os.Remove(l.file.Name()); err != nil {
			errs = append(errs, err)
		}
		l.file = nil
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("cog: removing scratch files: %w", err)
	}
	return nil
}

// addRow takes row y of the level (w samples as bytes), writes a row of
// tiles when it completes one and passes the row down to the next level.
func (l *level) addRow(y int, raw []byte) error {
	bs := l.img.blockSize()
	copy(l.band[(y%bs)*l.rowLen:], raw[:l.w*l.img.BitsPerSample/8])
	if y%bs == bs-1 || y == l.h-1 {
		if err := l.flush(); err != nil {
			return err
		}
	}
	if l.down == nil {
		return nil
	}
	l.img.kind().decode(raw, l.vals)
	return l.down.push(y, l.vals, l.next.addValues)
}

// addValues takes row y of the level as values already quantized.
func (l *level) addValues(y int, vals []float64) error {
	l.img.kind().encode(vals, l.raw)
	return l.addRow(y, l.raw)
}

// flush compresses the band's tiles into the scratch file, up to
// GOMAXPROCS tiles at a time, and clears the band, so the padding of
// partial tiles is zero, as in GDAL's files.
func (l *level) flush() error {
	workers := len(l.enc)
	for start := 0; start < l.tilesX; start += workers {
		n := min(workers, l.tilesX-start)
		if n == 1 {
			l.data[0], l.errs[0] = l.enc[0].encode(l.img, l.band, l.rowLen, start)
		} else {
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer guard.Recover(&l.errs[i])
					l.data[i], l.errs[i] = l.enc[i].encode(l.img, l.band, l.rowLen, start+i)
				}()
			}
			wg.Wait()
		}
		for i := range n {
			if l.errs[i] != nil {
				return l.errs[i]
			}
			if err := l.writeTile(l.data[i]); err != nil {
				return err
			}
		}
	}
	clear(l.band)
	return nil
}

// writeTile appends a compressed tile to the scratch file with its leader
// and trailer.
func (l *level) writeTile(data []byte) error {
	var leader [4]byte
	binary.LittleEndian.PutUint32(leader[:], uint32(len(data)))
	for _, b := range [][]byte{leader[:], data, data[len(data)-4:]} {
		if _, err := l.bw.Write(b); err != nil {
			return fmt.Errorf("cog: writing scratch file: %w", err)
		}
	}
	l.pos = append(l.pos, uint64(l.written)+4)
	l.sizes = append(l.sizes, uint64(len(data)))
	l.written += int64(len(data)) + 8
	return nil
}

// writeTo writes the file to w: header and ghost area, the IFDs from full
// resolution down, then each level's tiles from the smallest level up.
func (p *pyramid) writeTo(ctx context.Context, w io.Writer, big bool) (int64, error) {
	for _, l := range p.levels {
		if err := l.bw.Flush(); err != nil {
			return 0, fmt.Errorf("cog: writing scratch file: %w", err)
		}
	}
	f, ifds := p.format(big)
	out, first := f.header()
	at := first
	for i, fs := range ifds {
		next := uint64(0)
		if i+1 < len(ifds) {
			next = uint64(at + f.ifdSize(fs))
		}
		out = f.encodeIFD(out, at, fs, next)
		at = int64(len(out))
	}
	cw := &countWriter{w: w}
	if _, err := cw.Write(out); err != nil {
		return cw.n, fmt.Errorf("cog: writing the header: %w", err)
	}
	for i := len(p.levels) - 1; i >= 0; i-- {
		l := p.levels[i]
		if _, err := l.file.Seek(0, io.SeekStart); err != nil {
			return cw.n, fmt.Errorf("cog: reading scratch file: %w", err)
		}
		if _, err := io.Copy(cw, ctxReader{ctx: ctx, r: l.file}); err != nil {
			return cw.n, fmt.Errorf("cog: writing level %d: %w", i, err)
		}
	}
	return cw.n, nil
}

// format chooses classic TIFF, or BigTIFF when big is set or the file would
// pass 4 GiB, and returns it with the IFDs' fields.
func (p *pyramid) format(big bool) (format, [][]field) {
	f := format{big: big}
	end, ifds := p.layout(f)
	if !big && end > math.MaxUint32 {
		f.big = true
		_, ifds = p.layout(f)
	}
	return f, ifds
}

// layout returns the offset just past the last byte of the file and each
// level's IFD fields with its tile offsets filled in.
func (p *pyramid) layout(f format) (int64, [][]field) {
	_, first := f.header()
	ifds := make([][]field, len(p.levels))
	at := first
	for i, l := range p.levels {
		ifds[i] = p.img.fields(f, i, make([]uint64, len(l.pos)), l.sizes)
		at += f.ifdSize(ifds[i])
	}
	for i := len(p.levels) - 1; i >= 0; i-- {
		l := p.levels[i]
		offs := make([]uint64, len(l.pos))
		for j, pos := range l.pos {
			offs[j] = uint64(at) + pos
		}
		ifds[i] = p.img.fields(f, i, offs, l.sizes)
		at += l.written
	}
	return at, ifds
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// ctxReader stops a copy when ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}
