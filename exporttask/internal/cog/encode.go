package cog

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zlib"

	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
)

// deflateLevel is the compression level of the tiles: klauspost's fastest,
// which on terrain after the predictor is several times faster than level
// 6 and within a few percent of its size.
const deflateLevel = zlib.BestSpeed

// encoder compresses one tile at a time; each worker has one.
type encoder struct {
	tile, tmp []byte
	zbuf      bytes.Buffer
	zw        *zlib.Writer
}

func newEncoder(img Image) (*encoder, error) {
	bs, sample := img.blockSize(), img.BitsPerSample/8
	e := &encoder{tile: make([]byte, bs*bs*sample), tmp: make([]byte, bs*sample)}
	zw, err := zlib.NewWriterLevel(&e.zbuf, deflateLevel)
	if err != nil {
		return nil, fmt.Errorf("cog: %w", err)
	}
	e.zw = zw
	return e, nil
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

// job is one tile to compress: column tx of band b of level l.
type job struct {
	l  *level
	b  *band
	tx int
}

// pool is the goroutines compressing tiles. The first error (or panic)
// of any of them is kept and reported by failed.
type pool struct {
	jobs chan job
	turn func() (done func(), err error) // nil: compress without waiting
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
}

func newPool(img Image, workers int, turn func() (func(), error)) (*pool, error) {
	p := &pool{jobs: make(chan job, 2*workers), turn: turn}
	encs := make([]*encoder, workers)
	for i := range encs {
		e, err := newEncoder(img)
		if err != nil {
			return nil, err
		}
		encs[i] = e
	}
	for _, e := range encs {
		p.wg.Add(1)
		go p.work(img, e)
	}
	return p, nil
}

func (p *pool) work(img Image, e *encoder) {
	defer p.wg.Done()
	for j := range p.jobs {
		p.run(img, e, j)
	}
}

// run compresses one tile (in a turn of its own when the pool has turns)
// and writes it to its level's scratch file; a panic becomes the pool's
// error.
func (p *pool) run(img Image, e *encoder, j job) {
	defer j.b.wg.Done()
	defer guard.OnPanic(p.fail) // a permanent failure of the task, see package guard
	if p.failed() != nil {
		return
	}
	data, err := p.compress(img, e, j)
	if err == nil {
		err = j.l.writeTile(j.b.ty, j.b.tx0+j.tx, data)
	}
	if err != nil {
		p.fail(err)
	}
}

// compress encodes the tile of j, in a turn of its own when the pool has
// turns; the turn ends also when the encoder panics.
func (p *pool) compress(img Image, e *encoder, j job) ([]byte, error) {
	if p.turn != nil {
		done, err := p.turn()
		if err != nil {
			return nil, err
		}
		defer done()
	}
	return e.encode(img, j.b.data, j.b.rowLen, j.tx)
}

func (p *pool) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
	}
}

func (p *pool) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// submit queues the n tiles of b.
func (p *pool) submit(l *level, b *band, n int) {
	b.wg.Add(n)
	for tx := range n {
		p.jobs <- job{l: l, b: b, tx: tx}
	}
}

// stop ends the workers once the queued tiles are done.
func (p *pool) stop() {
	close(p.jobs)
	p.wg.Wait()
}
