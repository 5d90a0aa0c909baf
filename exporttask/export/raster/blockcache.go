package raster

import (
	"container/list"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
)

// blockCacheBytes is the memory of decoded source blocks an imagery
// export keeps: 48 blocks of 512×512 RGBA, about three times the blocks a
// row of a strip of output tiles (see stripTiles) meets at a source's
// resolution. Blocks in use are kept beyond it.
const blockCacheBytes = 48 << 20

// blockKey names a block of one level of an imagery source.
type blockKey struct {
	level, bx, by int
}

// cachedBlock is a decoded block (RGBA), shared by the tiles that read
// it; done is closed once pix or err is set.
type cachedBlock struct {
	key blockKey
	pix []byte
	// uniform is a sparse block (unwritten in the file), every pixel
	// fill; it has no pix and is not kept.
	uniform bool
	fill    [4]byte
	err     error
	done    chan struct{}
	refs    int
	elem    *list.Element // in the LRU list while refs == 0
}

// blockCache keeps decoded blocks of an imagery source, least recently
// used first out once it holds more than its budget; a block is decoded
// once however many goroutines ask for it at the same time. It is safe for
// concurrent use.
type blockCache struct {
	img    *geotiff.Imagery
	mu     sync.Mutex
	blocks map[blockKey]*cachedBlock
	idle   list.List // blocks no tile holds, least recently used at the front
	used   int64
	budget int64
}

func newBlockCache(img *geotiff.Imagery, budget int64) *blockCache {
	return &blockCache{img: img, blocks: map[blockKey]*cachedBlock{}, budget: budget}
}

// get returns block (bx, by) of level k, decoding it with r unless it is
// held; the caller releases it with put.
func (c *blockCache) get(r *geotiff.ImageryReader, k, bx, by int) (*cachedBlock, error) {
	key := blockKey{k, bx, by}
	if lv := c.img.Levels[k]; lv.Sparse(bx, by) {
		return &cachedBlock{key: key, uniform: true, fill: r.SparseColor(lv), refs: 1}, nil
	}
	c.mu.Lock()
	if b := c.blocks[key]; b != nil {
		b.refs++
		if b.elem != nil {
			c.idle.Remove(b.elem)
			b.elem = nil
		}
		c.mu.Unlock()
		<-b.done
		return b, b.err
	}
	lv := c.img.Levels[k]
	size := lv.BlockWidth * lv.BlockHeight * 4
	var buf []byte
	for c.used+int64(size) > c.budget && c.idle.Len() > 0 {
		old := c.idle.Remove(c.idle.Front()).(*cachedBlock)
		delete(c.blocks, old.key)
		c.used -= int64(len(old.pix))
		if buf == nil && len(old.pix) == size && old.err == nil {
			buf = old.pix
		}
	}
	if buf == nil {
		buf = make([]byte, size)
	}
	b := &cachedBlock{key: key, pix: buf, done: make(chan struct{}), refs: 1}
	c.blocks[key] = b
	c.used += int64(size)
	c.mu.Unlock()
	func() {
		defer close(b.done) // also on a panic, so that no one waits for ever
		b.err = guard.Run(func() error { return r.Block(lv, bx, by, b.pix) })
	}()
	if b.err != nil {
		c.mu.Lock()
		if c.blocks[key] == b {
			delete(c.blocks, key) // not kept: the next ask tries again
			c.used -= int64(size)
		}
		c.mu.Unlock()
	}
	return b, b.err
}

// put releases a block get returned.
func (c *blockCache) put(b *cachedBlock) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b.refs--
	if b.refs == 0 && c.blocks[b.key] == b {
		b.elem = c.idle.PushBack(b)
	}
}
