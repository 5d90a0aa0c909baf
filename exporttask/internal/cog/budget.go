package cog

import (
	"fmt"
	"math"
)

// encoderOverhead is what one Deflate compressor holds beyond its tile
// buffers (its hash tables and window), rounded up.
const encoderOverhead = 1 << 20

// spillChunkTiles is the tile columns a spilled level reads back from its
// band file at a time.
const spillChunkTiles = 4

// memoryPlan is how each level holds its row of tiles, and what the
// writer's buffers add up to.
type memoryPlan struct {
	spill []bool // per level: the row of tiles lives in a scratch file
	bytes int64
	// workers compress tiles in parallel.
	workers int
}

// Memory returns the bytes of buffers [WriteWith] allocates for img with
// the given budget and workers (0 for the defaults), or an error when
// even the smallest layout does not fit the budget. A level holds its row
// of tiles (BlockSize rows of the level's width) twice in memory, one
// being filled while the other is compressed; when that does not fit, the
// row of tiles goes to a scratch file, from which the tiles are read back
// a few columns at a time, and only the level's current rows stay in
// memory: about 150 bytes per pixel of width for Int16.
func Memory(img Image, budget int64, workers int) (int64, error) {
	if err := img.Validate(); err != nil {
		return 0, err
	}
	o := Options{MemoryBudget: budget, Workers: workers}
	p, err := planMemory(img, o.budget(), o.workers())
	if err != nil {
		return 0, err
	}
	return p.bytes, nil
}

// planMemory keeps levels' rows of tiles in memory, from the smallest
// level up, while the total fits budget, and spills the rest.
func planMemory(img Image, budget int64, workers int) (memoryPlan, error) {
	sizes := img.levels()
	p := memoryPlan{spill: make([]bool, len(sizes)), workers: workers}
	for i := range p.spill {
		p.spill[i] = true
	}
	p.bytes = p.total(img, sizes)
	if p.bytes > budget {
		return p, fmt.Errorf("cog: writing a %d×%d image needs %d MB of working memory even with its rows of tiles in scratch files, over the budget of %d MB: export a narrower area",
			img.Width, img.Height, ceilMB(p.bytes), budget>>20)
	}
	for i := len(sizes) - 1; i >= 0; i-- {
		p.spill[i] = false
		if b := p.total(img, sizes); b <= budget {
			p.bytes = b
			continue
		}
		p.spill[i] = true
		break
	}
	return p, nil
}

func ceilMB(n int64) int64 { return (n + 1<<20 - 1) >> 20 }

// total is the bytes of every buffer the writer allocates with this plan.
func (p memoryPlan) total(img Image, sizes []levelSize) int64 {
	bs := int64(img.blockSize())
	sample := int64(img.BitsPerSample / 8)
	tile := bs * bs * sample
	add := func(a, b int64) int64 { // saturating
		if a > math.MaxInt64-b {
			return math.MaxInt64
		}
		return a + b
	}
	mul := func(a, b int64) int64 {
		if a != 0 && b > math.MaxInt64/a {
			return math.MaxInt64
		}
		return a * b
	}
	// Each worker: the tile after the predictor, a row for the float
	// predictor, the compressed tile (at most about the tile), and the
	// compressor.
	n := mul(int64(p.workers), 2*tile+bs*sample+encoderOverhead)
	n = add(n, mul(int64(sizes[0].w), sample)) // the row rows fills
	for i, s := range sizes {
		w := int64(s.w)
		tilesX, tilesY := int64(ceilDiv(s.w, int(bs))), int64(ceilDiv(s.h, int(bs)))
		n = add(n, mul(mul(tilesX, tilesY), 16)) // tile positions and sizes
		n = add(n, 1<<16)                        // the scratch file's buffer
		if p.spill[i] {
			n = add(n, mul(2*min(tilesX, spillChunkTiles), tile))
		} else {
			n = add(n, mul(2, mul(tilesX, tile)))
		}
		if i > 0 {
			n = add(n, mul(w, sample))              // the row encoded from values
			n = add(n, mul(w, 8))                   // the reducer's output row
			n = add(n, mul(add(w, int64(s.h)), 32)) // the reducer's spans
		}
		if i+1 < len(sizes) {
			// The row as values, and the reducer's source rows: three at
			// most (an odd side) and one spare.
			n = add(n, mul(w, 8*5))
		}
	}
	return n
}
