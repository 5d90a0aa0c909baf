package cog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
)

// pyramid is every level being written and the workers compressing their
// tiles.
type pyramid struct {
	img    Image
	levels []*level
	pool   *pool
}

// level is one resolution level: the row of tiles being filled and the
// scratch file its finished tiles go to, each with leader and trailer, in
// the order they were compressed.
type level struct {
	img      Image
	index    int
	w, h     int
	tilesX   int
	sample   int
	rowBytes int // bytes of one row of the level (w samples)
	pool     *pool

	// bands are filled and compressed in turn: rows go into one while the
	// workers compress the other. In memory, a band is the level's whole
	// row of tiles; spilled, the rows go to the band file and a band holds
	// spillChunkTiles tile columns read back from it.
	bands [2]*band
	cur   int
	spill *os.File // the band file of a spilled level, else nil

	mu      sync.Mutex // guards the scratch file and what follows
	file    *os.File
	bw      *bufio.Writer
	written int64
	pos     []uint64 // each tile's data offset in the scratch file, by tile index
	sizes   []uint64 // each tile's compressed size, by tile index

	vals []float64
	raw  []byte
	down *reducer
	next *level
}

// band is BlockSize rows of tiles columns starting at tile column tx0 of
// tile row ty, rowLen bytes a row.
type band struct {
	data   []byte
	rowLen int
	tx0    int
	ty     int
	wg     sync.WaitGroup // the tiles being compressed
}

func newPyramid(img Image, scratchDir string, plan memoryPlan, turn func() (func(), error)) (_ *pyramid, err error) {
	if scratchDir == "" {
		scratchDir = os.TempDir()
	}
	pl, err := newPool(img, plan.workers, turn)
	if err != nil {
		return nil, err
	}
	p := &pyramid{img: img, pool: pl}
	defer func() {
		if err != nil {
			_ = p.close()
		}
	}()
	k := img.kind()
	hasND, nd := img.noData()
	bs := img.blockSize()
	sample := img.BitsPerSample / 8
	for i, s := range img.levels() {
		l := &level{
			img: img, index: i, w: s.w, h: s.h, tilesX: ceilDiv(s.w, bs), sample: sample,
			rowBytes: s.w * sample, pool: pl,
		}
		p.levels = append(p.levels, l)
		if l.file, err = os.CreateTemp(scratchDir, fmt.Sprintf("cog-level%d-*.tmp", i)); err != nil {
			return nil, fmt.Errorf("cog: creating a scratch file: %w", err)
		}
		l.bw = bufio.NewWriterSize(l.file, 1<<16)
		tiles := l.tilesX
		if plan.spill[i] {
			if l.spill, err = os.CreateTemp(scratchDir, fmt.Sprintf("cog-band%d-*.tmp", i)); err != nil {
				return nil, fmt.Errorf("cog: creating a scratch file: %w", err)
			}
			tiles = min(tiles, spillChunkTiles)
		}
		for j := range l.bands {
			l.bands[j] = &band{data: make([]byte, bs*tiles*bs*sample), rowLen: tiles * bs * sample}
		}
		n := l.tilesX * ceilDiv(s.h, bs)
		l.pos = make([]uint64, n)
		l.sizes = make([]uint64, n)
		if i > 0 {
			l.raw = make([]byte, s.w*sample)
			prev := p.levels[i-1]
			if i == 1 { // the levels below take their values from the reducer
				prev.vals = make([]float64, prev.w)
			}
			prev.down = newReducer(k, hasND, nd, prev.w, prev.h, s.w, s.h)
			prev.next = l
		}
	}
	return p, nil
}

// failed returns the first error of the workers.
func (p *pyramid) failed() error { return p.pool.failed() }

// finish waits for every tile to be compressed and flushes the scratch
// files.
func (p *pyramid) finish() error {
	for _, l := range p.levels {
		for _, b := range l.bands {
			b.wg.Wait()
		}
	}
	if err := p.failed(); err != nil {
		return err
	}
	for _, l := range p.levels {
		if err := l.bw.Flush(); err != nil {
			return fmt.Errorf("cog: writing scratch file: %w", err)
		}
	}
	return nil
}

// close stops the workers, then closes and deletes the scratch files.
func (p *pyramid) close() error {
	p.pool.stop()
	var errs []error
	for _, l := range p.levels {
		for _, f := range []*os.File{l.file, l.spill} {
			if f == nil {
				continue
			}
			if err := f.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
				errs = append(errs, err)
			}
			if err := os.Remove(f.Name()); err != nil {
				errs = append(errs, err)
			}
		}
		l.file, l.spill = nil, nil
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("cog: removing scratch files: %w", err)
	}
	return nil
}

// addRow takes row y of the level (w samples as bytes), compresses a row
// of tiles when it completes one and passes the row down to the next level.
func (l *level) addRow(y int, raw []byte) error {
	if err := l.addSamples(y, raw); err != nil {
		return err
	}
	if l.down == nil {
		return nil
	}
	l.img.kind().decode(raw, l.vals)
	return l.down.push(y, l.vals, l.next.addValues)
}

// addSamples stores row y of the level and hands a row of tiles to the
// workers when it completes one.
func (l *level) addSamples(y int, raw []byte) error {
	bs := l.img.blockSize()
	r := y % bs
	row := raw[:l.rowBytes]
	if l.spill != nil {
		if _, err := l.spill.WriteAt(row, int64(r)*int64(l.rowBytes)); err != nil {
			return fmt.Errorf("cog: writing scratch file: %w", err)
		}
	} else {
		b := l.bands[l.cur]
		if r == 0 {
			b.wg.Wait() // its previous tiles are compressed
			clear(b.data)
		}
		copy(b.data[r*b.rowLen:], row)
	}
	if r == bs-1 || y == l.h-1 {
		return l.flush(y/bs, r+1)
	}
	return nil
}

// addValues takes row y of the level as values already quantized: it
// stores their samples and hands the values themselves down.
func (l *level) addValues(y int, vals []float64) error {
	l.img.kind().encode(vals, l.raw)
	if err := l.addSamples(y, l.raw); err != nil {
		return err
	}
	if l.down == nil {
		return nil
	}
	return l.down.push(y, vals, l.next.addValues)
}

// flush hands the tiles of tile row ty, whose first rows rows are filled,
// to the workers. The padding of partial tiles is zero, as in GDAL's files.
func (l *level) flush(ty, rows int) error {
	if err := l.pool.failed(); err != nil {
		return err
	}
	if l.spill == nil {
		b := l.bands[l.cur]
		b.ty, b.tx0 = ty, 0
		l.pool.submit(l, b, l.tilesX)
		l.cur ^= 1
		return nil
	}
	bs := l.img.blockSize()
	for tx0 := 0; tx0 < l.tilesX; tx0 += spillChunkTiles {
		b := l.bands[l.cur]
		b.wg.Wait()
		if err := l.pool.failed(); err != nil {
			return err
		}
		n := min(spillChunkTiles, l.tilesX-tx0)
		start := tx0 * bs * l.sample
		valid := min(b.rowLen, l.rowBytes-start)
		for r := range bs {
			dst := b.data[r*b.rowLen : (r+1)*b.rowLen]
			if r >= rows {
				clear(dst)
				continue
			}
			if _, err := l.spill.ReadAt(dst[:valid], int64(r)*int64(l.rowBytes)+int64(start)); err != nil {
				return fmt.Errorf("cog: reading scratch file: %w", err)
			}
			clear(dst[valid:])
		}
		b.ty, b.tx0 = ty, tx0
		l.pool.submit(l, b, n)
		l.cur ^= 1
	}
	return nil
}

// writeTile appends a compressed tile to the scratch file with its leader
// and trailer, and records where it went.
func (l *level) writeTile(ty, tx int, data []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var leader [4]byte
	binary.LittleEndian.PutUint32(leader[:], uint32(len(data)))
	for _, b := range [][]byte{leader[:], data, data[len(data)-4:]} {
		if _, err := l.bw.Write(b); err != nil {
			return fmt.Errorf("cog: writing scratch file: %w", err)
		}
	}
	i := ty*l.tilesX + tx
	l.pos[i] = uint64(l.written) + 4
	l.sizes[i] = uint64(len(data))
	l.written += int64(len(data)) + 8
	return nil
}
