package raster

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// JPEGQuality is the quality of rendered JPEG tiles: GDAL's default for
// GeoPackage tiles.
const JPEGQuality = 75

// tilePixels is the pixels of a tile.
const tilePixels = TileSize * TileSize

// renderer renders tiles of the grid from an imagery source, nearest
// neighbour: each output pixel takes the source pixel its sampling point
// (samplePoints) falls in, at the source level (full image or overview)
// GDAL would read for the output's resolution. It is safe for concurrent use; each goroutine
// brings its own tileWork.
type renderer struct {
	src    *imagery
	cache  *blockCache
	format string // TilePNG, TileJPEG or TileAuto
	// written is what renderCopier wrote, by level.
	written map[int]levelWritten
	// finest is the source's finest level (imageryLevels); origin is the
	// column and row, in that level's grid, of the first pixel of the
	// raster GDAL writes there (the box snapped out to the level's pixels,
	// as gdalwarp -tap does), size its width and height.
	finest int
	origin [2]int64
	size   [2]int64
}

func newRenderer(src *imagery, format string) *renderer {
	_, finest := imageryLevels(src.box, src.res)
	p := pixelDegrees(finest)
	west, east := int64(math.Floor(src.box.West/p)), int64(math.Ceil(src.box.East/p))
	south, north := int64(math.Floor(src.box.South/p)), int64(math.Ceil(src.box.North/p))
	return &renderer{src: src, cache: newBlockCache(src.img, blockCacheBytes), format: format, finest: finest,
		origin: [2]int64{int64(TileSize)<<finest + west, int64(TileSize)<<finest/2 - north},
		size:   [2]int64{max(east-west, 1), max(north-south, 1)}}
}

// samplePoints fills lons and lats with where the columns and rows of
// tile (col, row) of level z are sampled, source level k. At the finest
// level and at levels read from an overview of the source, a pixel's
// centre. A level read from the full image takes, like gdaladdo -r
// nearest on the GeoPackage GDAL writes, the centre of the finest-level
// pixel GDAL's decimation keeps: GDAL's overview of factor f =
// 2^(finest-z) spans n = round(size/f) pixels anchored at the raster's
// first pixel; its pixel i keeps the raster's pixel round(i·size/n); it
// is placed in the tiles from column round(origin/f) on (halves rounded
// up; rows alike).
func (rd *renderer) samplePoints(k, z int, col, row int64, lons, lats *[TileSize]float64) {
	p := pixelDegrees(z)
	if k > 0 || z >= rd.finest {
		for i := range TileSize {
			lons[i] = -180 + (float64(col*TileSize+int64(i))+0.5)*p
			lats[i] = 90 - (float64(row*TileSize+int64(i))+0.5)*p
		}
		return
	}
	f := int64(1) << (rd.finest - z)
	pf := pixelDegrees(rd.finest)
	kept := func(axis int, x int64) float64 { // x: the level's column or row
		o, w := rd.origin[axis], rd.size[axis]
		n := max((w+f/2)/f, 1)
		i := x - (o+f/2)/f
		if i <= -2*n || i >= 2*n || w >= 1<<30 { // far from the raster, or too large for exact integers
			return float64(o) + math.Floor(float64(i)*float64(w)/float64(n)+0.5) + 0.5
		}
		// round(i·w/n), exactly in integers, i possibly negative
		num := 2*i*w + n
		c := num / (2 * n)
		if num%(2*n) != 0 && num < 0 {
			c--
		}
		return float64(o+c) + 0.5
	}
	for i := range TileSize {
		lons[i] = -180 + kept(0, col*TileSize+int64(i))*pf
		lats[i] = 90 - kept(1, row*TileSize+int64(i))*pf
	}
}

// tileWork is one goroutine's buffers for rendering tiles.
type tileWork struct {
	r      *geotiff.ImageryReader
	px, py []int32 // per output pixel, the source pixel; px -1 where outside the source
	tile   *image.NRGBA
	held   []*cachedBlock
	order  []int64 // renderByBlock: block << 16 | pixel
	buf    bytes.Buffer
	png    png.Encoder
}

func (rd *renderer) newWork() *tileWork {
	return &tileWork{r: rd.src.img.NewReader(), px: make([]int32, tilePixels), py: make([]int32, tilePixels),
		tile: image.NewNRGBA(image.Rect(0, 0, TileSize, TileSize)),
		png:  png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngBuffers{}}}
}

// pngBuffers keeps one PNG encoder buffer for reuse (a tileWork is used by
// one goroutine at a time).
type pngBuffers struct{ b *png.EncoderBuffer }

func (p *pngBuffers) Get() *png.EncoderBuffer  { return p.b }
func (p *pngBuffers) Put(b *png.EncoderBuffer) { p.b = b }

// sourceLevel returns the source level to sample for output level z: the
// coarsest whose pixels are no larger than the output's (GDAL reads the
// overview of the resolution at or just finer than the one asked for).
func (rd *renderer) sourceLevel(z int) int {
	img := rd.src.img
	want := pixelDegrees(z) / rd.src.res * rd.src.gt[1] // the output pixel in source units
	base := float64(img.Levels[0].Width)
	k := 0
	for i, lv := range img.Levels {
		if rd.src.gt[1]*base/float64(lv.Width) <= want*(1+1e-9) {
			k = i
		}
	}
	return k
}

// levelTransform returns the geotransform of source level k: the full
// image's, with pixels scaled by the size ratio, as GDAL sees overviews.
func (rd *renderer) levelTransform(k int) (x0, dx, y0, dy float64) {
	img := rd.src.img
	gt := rd.src.gt
	lv := img.Levels[k]
	return gt[0], gt[1] * float64(img.Levels[0].Width) / float64(lv.Width),
		gt[3], gt[5] * float64(img.Levels[0].Height) / float64(lv.Height)
}

// sample fills w.px and w.py with the source pixel of level k under each
// pixel centre of tile (col, row) of level z, and returns the block range
// they meet (bx1 < bx0 when none).
func (rd *renderer) sample(w *tileWork, k, z int, col, row int64) (bx0, bx1, by0, by1 int) {
	lv := rd.src.img.Levels[k]
	x0, dx, y0, dy := rd.levelTransform(k)
	var lons, lats [TileSize]float64
	rd.samplePoints(k, z, col, row, &lons, &lats)
	minX, maxX, minY, maxY := int32(math.MaxInt32), int32(-1), int32(math.MaxInt32), int32(-1)
	if rd.src.lonLat == nil {
		// In EPSG:4326 a column's source column is the same on every row.
		var xs, ys [TileSize]int32
		for i := range TileSize {
			xs[i] = pixelOf((lons[i]-x0)/dx, lv.Width)
			ys[i] = pixelOf((lats[i]-y0)/dy, lv.Height)
			if xs[i] >= 0 {
				minX, maxX = min(minX, xs[i]), max(maxX, xs[i])
			}
			if ys[i] >= 0 {
				minY, maxY = min(minY, ys[i]), max(maxY, ys[i])
			}
		}
		for j := range TileSize {
			for i := range TileSize {
				x, y := xs[i], ys[j]
				if y < 0 {
					x = -1
				}
				w.px[j*TileSize+i], w.py[j*TileSize+i] = x, y
			}
		}
	} else {
		rd.sampleProjected(w, lv, x0, dx, y0, dy, &lons, &lats)
		for i, x := range w.px {
			if x >= 0 {
				y := w.py[i]
				minX, maxX = min(minX, x), max(maxX, x)
				minY, maxY = min(minY, y), max(maxY, y)
			}
		}
	}
	if maxX < 0 || maxY < 0 {
		return 0, -1, 0, -1
	}
	return int(minX) / lv.BlockWidth, int(maxX) / lv.BlockWidth, int(minY) / lv.BlockHeight, int(maxY) / lv.BlockHeight
}

// pixelOf is the pixel a source coordinate (in pixels) falls in, -1
// outside 0..n-1. Like GDAL's nearest-neighbour warper, a centre within
// 1e-10 pixel below an edge counts as past it.
func pixelOf(v float64, n int) int32 {
	f := math.Floor(v + 1e-10)
	if !(f >= 0) || f >= float64(n) {
		return -1
	}
	return int32(f)
}

// maxPinned is the most source blocks a tile holds at once when it reads
// them all together; a tile meeting more (a coarse level of a source
// without overviews) reads them one at a time, its pixels grouped by block.
const maxPinned = 16

// render draws tile (col, row) of level z into w.tile and reports whether
// any pixel holds data.
func (rd *renderer) render(w *tileWork, z int, col, row int64) (bool, error) {
	k := rd.sourceLevel(z)
	lv := rd.src.img.Levels[k]
	bx0, bx1, by0, by1 := rd.sample(w, k, z, col, row)
	clear(w.tile.Pix)
	if bx1 < bx0 {
		return false, nil
	}
	if (bx1-bx0+1)*(by1-by0+1) > maxPinned {
		return rd.renderByBlock(w, k, bx0, bx1, by0, by1)
	}
	nbx := bx1 - bx0 + 1
	w.held = w.held[:0]
	defer func() {
		for _, b := range w.held {
			rd.cache.put(b)
		}
	}()
	for by := by0; by <= by1; by++ {
		for bx := bx0; bx <= bx1; bx++ {
			b, err := rd.cache.get(w.r, k, bx, by)
			w.held = append(w.held, b)
			if err != nil {
				return false, err
			}
		}
	}
	bw, bh := lv.BlockWidth, lv.BlockHeight
	any := false
	for i := range tilePixels {
		x := w.px[i]
		if x < 0 {
			continue
		}
		y := int(w.py[i])
		b := w.held[(y/bh-by0)*nbx+int(x)/bw-bx0]
		any = setPixel(w.tile.Pix[4*i:4*i+4], b, ((y%bh)*bw+int(x)%bw)*4) || any
	}
	return any, nil
}

// setPixel copies the pixel at offset o of block b into dst unless it is
// clear, and reports whether it copied.
func setPixel(dst []byte, b *cachedBlock, o int) bool {
	s := b.fill[:]
	if !b.uniform {
		s = b.pix[o : o+4 : o+4]
	}
	if s[3] == 0 {
		return false
	}
	copy(dst, s)
	return true
}

// renderByBlock draws a tile whose pixels meet many source blocks: its
// pixels sorted by block, each block read (and held) once, one at a time.
func (rd *renderer) renderByBlock(w *tileWork, k, bx0, bx1, by0, by1 int) (bool, error) {
	lv := rd.src.img.Levels[k]
	bw, bh := lv.BlockWidth, lv.BlockHeight
	nbx := bx1 - bx0 + 1
	w.order = w.order[:0]
	for i := range tilePixels {
		if x := w.px[i]; x >= 0 {
			key := int64(int(w.py[i])/bh-by0)*int64(nbx) + int64(int(x)/bw-bx0)
			w.order = append(w.order, key<<16|int64(i))
		}
	}
	slices.Sort(w.order) // by block, then by pixel
	any := false
	for start := 0; start < len(w.order); {
		key := w.order[start] >> 16
		end := start
		for end < len(w.order) && w.order[end]>>16 == key {
			end++
		}
		bx, by := bx0+int(key%int64(nbx)), by0+int(key/int64(nbx))
		b, err := rd.cache.get(w.r, k, bx, by)
		if err != nil {
			rd.cache.put(b)
			return false, err
		}
		for _, v := range w.order[start:end] {
			i := int(v & 0xFFFF)
			x, y := int(w.px[i]), int(w.py[i])
			any = setPixel(w.tile.Pix[4*i:4*i+4], b, ((y%bh)*bw+x%bw)*4) || any
		}
		rd.cache.put(b)
		start = end
	}
	return any, nil
}

// encode encodes w.tile in the renderer's format and returns a copy of
// the bytes.
func (rd *renderer) encode(w *tileWork) ([]byte, error) {
	opaque := true
	pix := w.tile.Pix
	for i := 3; i < len(pix); i += 4 {
		if pix[i] != 255 {
			opaque = false
			break
		}
	}
	w.buf.Reset()
	if rd.format == TileJPEG || (rd.format == TileAuto && opaque) {
		if !opaque { // JPEG has no alpha: what has no data is black
			for i := 0; i < len(pix); i += 4 {
				if a := uint32(pix[i+3]); a != 255 {
					pix[i] = uint8(uint32(pix[i]) * a / 255)
					pix[i+1] = uint8(uint32(pix[i+1]) * a / 255)
					pix[i+2] = uint8(uint32(pix[i+2]) * a / 255)
					pix[i+3] = 255
				}
			}
		}
		rgba := &image.RGBA{Pix: pix, Stride: w.tile.Stride, Rect: w.tile.Rect}
		if err := jpeg.Encode(&w.buf, rgba, &jpeg.Options{Quality: JPEGQuality}); err != nil {
			return nil, fmt.Errorf("encoding a JPEG tile: %w", err)
		}
	} else if err := w.png.Encode(&w.buf, w.tile); err != nil {
		return nil, fmt.Errorf("encoding a PNG tile: %w", err)
	}
	return bytes.Clone(w.buf.Bytes()), nil
}
