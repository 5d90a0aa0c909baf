package dem

import (
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// The size estimate's compression ratios are measured, not assumed: the
// COG writer's Deflate ratio against the source's own differs with the
// terrain (the whole extents of bench/fairness's 8,000² and 16,000²
// sources and of bench/demwindow's 40,000 × 20,000 one came out 1.10,
// 1.45 and 1.26 times the source's ratio), so a fixed factor left the
// estimate 12 to 24% short on two of them; and each overview level
// compresses worse than the one below (0.097, 0.127, 0.166, 0.217 of the
// decoded bytes on the 16,000² source's levels 0 to 3: its samples differ
// more from their neighbours). Estimate reads up to sampleGrid blocks of
// 2 × 2 tiles' worth of the window's source pixels, spread over the
// window, compresses two of its tiles exactly as the writer does (the
// full resolution's ratio) and the block averaged down to one tile as the
// writer's first overview (the overviews' growth from level to level).
// That reads a bounded number of source blocks whatever the source's
// size (at most sampleStoredBytes a sample), so a create stays cheap.

// sampleGrid is the parts of the window across and down; one sample is
// read in each part along the window's diagonal.
const sampleGrid = 2

// sampleStoredBytes is the most stored bytes one sample may read: a
// source in wide strips (each sample would read whole rows of it) is not
// sampled.
const sampleStoredBytes = 8 << 20

// sampleMemory is the reader's memory budget for a sample.
const sampleMemory = 16 << 20

// ratios are the compressed/decoded sizes the estimate assumes: full at
// the full resolution, and each overview level growth times its parent's.
type ratios struct {
	full, growth float64
}

// sampledRatios measures the ratios on samples of the window's source
// pixels (see above); false when the window is smaller than a sample (2 ×
// 2 tiles of cog.DefaultBlockSize), a sample would read more than
// sampleStoredBytes, or a sample cannot be read (the export itself will
// say why).
func (p *plan) sampledRatios(scratch string) (ratios, bool) {
	bs := 2 * cog.DefaultBlockSize
	across, down := p.win.width/bs, p.win.height/bs
	if across == 0 || down == 0 {
		return ratios{}, false
	}
	kx, ky := min(across, sampleGrid), min(down, sampleGrid)
	sampler, err := cog.NewSampler(p.img)
	if err != nil {
		return ratios{}, false
	}
	block := make([]byte, bs*bs*p.src.tif.SampleBytes())
	tile := make([]byte, len(block)/4)
	var full, over, decoded int64
	parts := max(kx, ky)
	for i := range parts {
		// The middle block of each part of the window along its
		// diagonal.
		ix, iy := i*kx/parts, i*ky/parts
		bx, by := (2*ix+1)*across/(2*kx), (2*iy+1)*down/(2*ky)
		if !p.readSample(p.win.col+bx*bs, p.win.row+by*bs, bs, block, scratch) {
			return ratios{}, false
		}
		for _, t := range []int{0, 3} { // two tiles of the four, on its diagonal
			n, err := sampler.TileSize(quarter(block, bs, t, tile))
			if err != nil {
				return ratios{}, false
			}
			full += int64(n)
		}
		n, err := sampler.OverviewTileSize(block)
		if err != nil {
			return ratios{}, false
		}
		over += int64(n)
		decoded += int64(len(tile))
	}
	r := ratios{full: min(1, float64(full)/float64(2*decoded)), growth: 1}
	if full > 0 {
		r.growth = min(max(float64(2*over)/float64(full), 1), 2)
	}
	return r, true
}

// quarter copies quarter t (0 to 3, in rows) of block, bs samples square,
// into tile and returns it.
func quarter(block []byte, bs, t int, tile []byte) []byte {
	rowBytes := len(block) / bs
	half := rowBytes / 2
	x0, y0 := (t%2)*half, (t/2)*bs/2
	for y := range bs / 2 {
		copy(tile[y*half:(y+1)*half], block[(y0+y)*rowBytes+x0:])
	}
	return tile
}

// readSample reads the bs × bs source pixels at (col, row) into block.
func (p *plan) readSample(col, row, bs int, block []byte, scratch string) bool {
	rd, err := p.src.tif.WindowWith(col, row, bs, bs, geotiff.WindowOptions{MemoryBudget: sampleMemory, Workers: 1, ScratchDir: scratch})
	if err != nil {
		return false
	}
	defer rd.Close()
	if rd.StoredBytes() > sampleStoredBytes {
		return false
	}
	rowBytes := len(block) / bs
	for y := range bs {
		if err := rd.Row(y, block[y*rowBytes:(y+1)*rowBytes]); err != nil {
			return false
		}
	}
	return true
}

// compressedPixels is the pixels of a COG of w×h pixels with its
// overviews (halved until they fit one tile, as the COG writer does),
// each level weighted by its ratio (r.full, times r.growth per level, at
// most 1): the COG's compressed bytes over its sample size.
func compressedPixels(w, h int, r ratios) float64 {
	total, ratio := 0.0, r.full
	for {
		total += float64(w) * float64(h) * min(ratio, 1)
		if w <= cog.DefaultBlockSize && h <= cog.DefaultBlockSize {
			return total
		}
		w, h, ratio = max(1, w/2), max(1, h/2), ratio*r.growth
	}
}

// ratioCacheSize is how many windows' sampled ratios an Exporter keeps.
const ratioCacheSize = 256

// ratioKey names the samples of one window of one version of a source.
type ratioKey struct {
	path, version       string
	col, row, w, h, bps int
}

// ratioCache keeps the sampled ratios of recent windows, so that the
// estimate a worker makes again at export (see export.Exporter.Export)
// and creates of the same window read no samples again. It is safe for
// concurrent use.
type ratioCache struct {
	mu    sync.Mutex
	m     map[ratioKey]ratios
	order []ratioKey // oldest first
}

// ratios returns p's sampled ratios from the cache, or measures them.
func (c *ratioCache) ratios(p *plan, version, scratch string) (ratios, bool) {
	k := ratioKey{path: p.src.path, version: version, col: p.win.col, row: p.win.row, w: p.win.width, h: p.win.height, bps: p.img.BitsPerSample}
	c.mu.Lock()
	r, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return r, true
	}
	r, ok = p.sampledRatios(scratch)
	if !ok || version == "" {
		return r, ok
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[ratioKey]ratios{}
	}
	if _, had := c.m[k]; !had {
		if len(c.order) == ratioCacheSize {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, k)
	}
	c.m[k] = r
	return r, true
}
