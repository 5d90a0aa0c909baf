package geotiff

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
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

// DefaultWindowBudget is the memory a [Window] allows itself when
// WindowOptions.MemoryBudget is 0.
const DefaultWindowBudget = 64 << 20

// WindowOptions tune [File.WindowWith].
type WindowOptions struct {
	// MemoryBudget bounds the bytes the window's buffers take (see
	// [Window.Memory]); 0 means DefaultWindowBudget.
	MemoryBudget int64
	// Workers is the number of blocks decoded at the same time; 0 means
	// GOMAXPROCS. Fewer are used when their buffers would not fit the
	// budget.
	Workers int
	// ScratchDir holds the window's part of a block row when it does not
	// fit the budget; "" means os.TempDir().
	ScratchDir string
	// Turn, when set, waits for a turn at a chunk of CPU work and returns
	// the function that ends it (export.Pace): each block is decoded
	// in a turn of its own. Its error fails the row being read.
	Turn func() (done func(), err error)
}

// Window reads rows of the first band of a pixel window of a [File], in
// order from top to bottom, decoding only the blocks the window meets and
// each of them once: it keeps the window's part of one block row (its
// rows and the window's columns), in memory or, when that would not fit
// its budget, in a scratch file. The blocks of a row are decoded in
// parallel. It is not safe for concurrent use; [Window.Close] releases
// its scratch file.
type Window struct {
	f            *File
	x0, y0, w, h int
	bx0, bx1     int // the block columns met, inclusive
	decoders     []*blockDecoder
	by           int    // the block row held, -1 for none
	r0           int    // the first window row it holds
	band         []byte // in memory: the rows held, w samples each
	spill        *os.File
	spillDir     string // where the scratch file goes, made at the first row
	sample       int
	memory       int64
	turn         func() (func(), error) // nil: decode without waiting
}

// Window returns a reader of the pixels [x0, x0+w) × [y0, y0+h) with the
// default options; see [File.WindowWith].
func (f *File) Window(x0, y0, w, h int) (*Window, error) {
	return f.WindowWith(x0, y0, w, h, WindowOptions{})
}

// WindowWith returns a reader of the pixels [x0, x0+w) × [y0, y0+h),
// which must lie inside the image; it fails when [File.Decodable] does,
// or when one block's buffers alone would exceed the memory budget.
func (f *File) WindowWith(x0, y0, w, h int, o WindowOptions) (*Window, error) {
	if err := f.Decodable(); err != nil {
		return nil, err
	}
	if w <= 0 || h <= 0 || x0 < 0 || y0 < 0 || x0 > f.Width-w || y0 > f.Height-h {
		return nil, errorf("window %dx%d at (%d, %d) is not inside the %dx%d image", w, h, x0, y0, f.Width, f.Height)
	}
	budget := o.MemoryBudget
	if budget <= 0 {
		budget = DefaultWindowBudget
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	bx0, bx1 := x0/f.BlockWidth, (x0+w-1)/f.BlockWidth
	win := &Window{f: f, x0: x0, y0: y0, w: w, h: h, bx0: bx0, bx1: bx1, by: -1, sample: f.SampleBytes(), turn: o.Turn}
	workers = max(1, min(workers, bx1-bx0+1))
	perDecoder := win.decoderBytes()
	band := int64(min(f.BlockHeight, h)) * int64(w) * int64(win.sample)
	for workers > 1 && int64(workers)*perDecoder+band > budget {
		workers--
	}
	win.memory = int64(workers) * perDecoder
	if win.memory > budget {
		return nil, errorf("decoding a %dx%d block takes %d MB, over the reader's memory budget of %d MB",
			f.BlockWidth, f.BlockHeight, (win.memory+1<<20-1)>>20, budget>>20)
	}
	if win.memory+band <= budget {
		win.band = make([]byte, band)
		win.memory += band
	} else {
		win.spillDir = o.ScratchDir
		if win.spillDir == "" {
			win.spillDir = os.TempDir()
		}
	}
	for range workers {
		win.decoders = append(win.decoders, newBlockDecoder(f))
	}
	return win, nil
}

// decoderBytes is the most one decoder's buffers hold for the blocks of
// the window: the decoded block of every band, the stored block and the
// floating-point predictor's row.
func (w *Window) decoderBytes() int64 {
	f := w.f
	rowBytes := int64(f.BlockWidth) * int64(f.pixelSamples()) * int64(f.SampleBytes())
	var stored uint64
	for by := w.y0 / f.BlockHeight; by <= (w.y0+w.h-1)/f.BlockHeight; by++ {
		for bx := w.bx0; bx <= w.bx1; bx++ {
			stored = max(stored, f.counts[by*f.blocksAcross+bx])
		}
	}
	return int64(f.BlockHeight)*rowBytes + int64(stored) + rowBytes
}

// Memory returns the bytes of the window's buffers: the decoders' and,
// unless it went to a scratch file, the block row's part.
func (w *Window) Memory() int64 { return w.memory }

// Spilled reports whether the window keeps its rows in a scratch file.
func (w *Window) Spilled() bool { return w.band == nil }

// openSpill creates the scratch file, unlinked at once: its space
// returns when it is closed, whatever happens to the process.
func (w *Window) openSpill() error {
	sp, err := os.CreateTemp(w.spillDir, "geotiff-window-*.tmp")
	if err != nil {
		return errorf("creating a scratch file: %w", err)
	}
	if err := os.Remove(sp.Name()); err != nil {
		sp.Close()
		return errorf("creating a scratch file: %w", err)
	}
	w.spill = sp
	return nil
}

// Close releases the scratch file, if any.
func (w *Window) Close() error {
	if w.spill == nil {
		return nil
	}
	err := w.spill.Close()
	w.spill = nil
	return err
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
func (w *Window) BytesRead() int64 {
	var n int64
	for _, d := range w.decoders {
		n += d.read
	}
	return n
}

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
		if w.band == nil && w.spill == nil {
			if err := w.openSpill(); err != nil {
				return err
			}
		}
		if err := w.load(by); err != nil {
			return err
		}
		w.by = by
		w.r0 = max(by*f.BlockHeight, w.y0) - w.y0
	}
	rowBytes := w.w * w.sample
	i := y - w.r0
	if w.spill != nil {
		if _, err := w.spill.ReadAt(dst[:rowBytes], int64(i)*int64(rowBytes)); err != nil {
			return errorf("reading the scratch file: %w", err)
		}
		return nil
	}
	copy(dst[:rowBytes], w.band[i*rowBytes:])
	return nil
}

// load decodes the blocks of block row by that the window meets, on
// every decoder at once, and keeps the window's part of them.
func (w *Window) load(by int) error {
	f := w.f
	r0 := max(by*f.BlockHeight, w.y0)                   // the first image row kept
	r1 := min((by+1)*f.BlockHeight, w.y0+w.h, f.Height) // and one past the last
	var next atomic.Int64
	next.Store(int64(w.bx0))
	errs := make([]error, len(w.decoders))
	var wg sync.WaitGroup
	for i, d := range w.decoders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer guard.Recover(&errs[i]) // a permanent failure of the task, see package guard
			for {
				bx := int(next.Add(1) - 1)
				if bx > w.bx1 {
					return
				}
				if errs[i] = w.keep(d, bx, by, r0, r1); errs[i] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// keep decodes block (bx, by) and stores rows [r0, r1) of its columns the
// window holds, in a turn of its own when the window has turns.
func (w *Window) keep(d *blockDecoder, bx, by, r0, r1 int) error {
	f := w.f
	if w.turn != nil {
		done, err := w.turn()
		if err != nil {
			return err
		}
		defer done()
	}
	blk, err := d.decode(bx, by)
	if err != nil {
		return err
	}
	c0 := max(w.x0, bx*f.BlockWidth)
	c1 := min(w.x0+w.w, (bx+1)*f.BlockWidth)
	rowBytes := w.w * w.sample
	for r := r0; r < r1; r++ {
		src := blk[((r-by*f.BlockHeight)*f.BlockWidth+c0-bx*f.BlockWidth)*w.sample:][:(c1-c0)*w.sample]
		at := (r-r0)*rowBytes + (c0-w.x0)*w.sample
		if w.spill != nil {
			if _, err := w.spill.WriteAt(src, int64(at)); err != nil {
				return errorf("writing the scratch file: %w", err)
			}
			continue
		}
		copy(w.band[at:], src)
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

// CountValid returns a function counting the samples among the first n of
// a decoded row (little-endian samples of the first band) that hold data,
// as [File.Valid] decides, in one typed loop.
func (f *File) CountValid() func(b []byte, n int) int {
	t, _ := f.SampleType()
	var nd [8]byte
	has := f.HasNoData && EncodeValue(t, f.NoData, nd[:])
	switch t {
	case Int16, UInt16:
		if !has {
			return func(_ []byte, n int) int { return n }
		}
		v := binary.LittleEndian.Uint16(nd[:])
		return func(b []byte, n int) int {
			c := 0
			for i := range n {
				if binary.LittleEndian.Uint16(b[2*i:]) != v {
					c++
				}
			}
			return c
		}
	case Float32:
		v := math.Float32frombits(binary.LittleEndian.Uint32(nd[:]))
		return func(b []byte, n int) int {
			c := 0
			for i := range n {
				x := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
				if x == x && (!has || x != v) {
					c++
				}
			}
			return c
		}
	}
	valid := f.Valid()
	return func(b []byte, n int) int {
		c := 0
		for i := range n {
			if valid(b, i) {
				c++
			}
		}
		return c
	}
}
