package raster

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// thumbnail is one thumbnail artifact: its type, file name and longest
// side in pixels.
type thumbnail struct {
	Type exporttask.ArtifactType
	Name string
	Size int
}

// thumbnails are the three thumbnails of an export.
func thumbnails() []thumbnail {
	return []thumbnail{
		{exporttask.ArtifactThumbnailsSmall, "thumbnail-small.png", 128},
		{exporttask.ArtifactThumbnailsMedium, "thumbnail-medium.png", 256},
		{exporttask.ArtifactThumbnailsLarge, "thumbnail-large.png", 512},
	}
}

const (
	// thumbnailDetail is the size, in pixels of its level, from which a
	// level is detailed enough to draw the largest thumbnail from.
	thumbnailDetail = 512
	// canvasLimit bounds the picture composited from the tiles: a larger
	// area is averaged down while it is drawn.
	canvasLimit = 1024
)

// thumbnailLevel picks the level of sel to draw thumbnails from: the
// first one holding tiles at which the exported box is thumbnailDetail
// pixels long, else the deepest holding tiles (else the deepest).
func thumbnailLevel(j export.Job, sel selection) level {
	var pick level
	for i, l := range sel.Levels {
		if l.Tiles == 0 && (pick.Tiles > 0 || i < len(sel.Levels)-1) {
			continue
		}
		pick = l
		if math.Max(j.Box().Width(), j.Box().Height())/pixelDegrees(l.Zoom) >= thumbnailDetail {
			break
		}
	}
	return pick
}

// canvas is the exported area drawn at one level: premultiplied RGBA
// sums of the source pixels falling in each canvas pixel. It spans the
// level's pixels that the exported box meets, and so reaches a little past
// the box on every side; the thumbnails are resampled from it over the box
// exactly.
type canvas struct {
	z      int
	ox, oy int64 // the level's pixel at the canvas's top-left corner
	sw, sh int64 // the level's pixels the box meets, each way, from (ox, oy)
	k      int64 // source pixels per canvas pixel, each way
	w, h   int
	sum    []uint32 // 4 per pixel
}

// drawThumbnails composites the exported area from the selected source
// tiles of a suitable level, and returns each thumbnail as PNG, in the
// order of thumbnails(): the exported box edge to edge, clear outside the
// exported area.
func drawThumbnails(ctx context.Context, src *source, j export.Job, sel selection) ([][]byte, error) {
	l := thumbnailLevel(j, sel)
	c := newCanvas(j, l.Zoom)
	if err := c.drawTiles(ctx, src, l); err != nil {
		return nil, err
	}
	img := c.image()
	var out [][]byte
	for _, t := range thumbnails() {
		// Each thumbnail is scaled and encoded in a turn at CPU work.
		done, err := export.Pace(ctx)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		w, h := thumbnailSize(j, t.Size)
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		err = enc.Encode(&buf, c.thumbnail(img, j, w, h))
		done()
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", t.Name, err)
		}
		out = append(out, buf.Bytes())
	}
	return out, nil
}

func newCanvas(j export.Job, z int) *canvas {
	p := pixelDegrees(z)
	x0, x1 := math.Floor((j.Box().West+180)/p), math.Ceil((j.Box().East+180)/p)
	y0, y1 := math.Floor((90-j.Box().North)/p), math.Ceil((90-j.Box().South)/p)
	w, h := max(int64(x1-x0), 1), max(int64(y1-y0), 1)
	k := max((max(w, h)+canvasLimit-1)/canvasLimit, 1)
	c := &canvas{z: z, ox: int64(x0), oy: int64(y0), sw: w, sh: h, k: k, w: int((w + k - 1) / k), h: int((h + k - 1) / k)}
	c.sum = make([]uint32, 4*c.w*c.h)
	return c
}

// drawTiles adds the selected tiles of level l (PNG, JPEG or WebP).
func (c *canvas) drawTiles(ctx context.Context, src *source, l level) error {
	for _, r := range l.runs {
		for col := r.col0; col <= r.col1; col++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := c.drawTile(ctx, src, l.Zoom, col, r.row); err != nil {
				return err
			}
		}
	}
	return nil
}

// drawTile adds tile (z, col, row), read and decoded in a turn at CPU
// work (see export.Pace).
func (c *canvas) drawTile(ctx context.Context, src *source, z int, col, row int64) error {
	done, err := export.Pace(ctx)
	if err != nil {
		return err
	}
	defer done()
	data, err := src.read(ctx, z, col, row)
	if err != nil {
		return fmt.Errorf("reading level %d for the thumbnails: %w", z, err)
	}
	img, err := decodeTile(data)
	if err != nil {
		return &tileError{z: z, col: col, row: row, err: err}
	}
	c.add(img, col*TileSize, row*TileSize)
	return nil
}

// decodeTile decodes a tile after checking, from its header only, that
// it is an image of TileSize×TileSize pixels (see checkTile): a tile
// declaring more pixels is refused before anything is allocated for them.
func decodeTile(data []byte) (image.Image, error) {
	if err := checkTile(data); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("cannot be decoded: %w", err)
	}
	if b := img.Bounds(); b.Dx() != TileSize || b.Dy() != TileSize {
		return nil, fmt.Errorf("decodes to %d×%d pixels, not %d×%d", b.Dx(), b.Dy(), TileSize, TileSize)
	}
	return img, nil
}

// tileError is a tile of the export that cannot be drawn: its message
// names the tile by level, column and row (0 at the top), never by a path.
type tileError struct {
	z        int
	col, row int64
	err      error
}

func (e *tileError) Error() string {
	return fmt.Sprintf("tile %d/%d/%d (level/column/row from the top) %v", e.z, e.col, e.row, e.err)
}

func (e *tileError) Unwrap() error { return e.err }

// add accumulates img, whose top-left pixel is the level's pixel (gx, gy).
func (c *canvas) add(img image.Image, gx, gy int64) {
	b := img.Bounds()
	nrgba, _ := img.(*image.NRGBA)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		cy := gy + int64(y-b.Min.Y) - c.oy
		if cy < 0 || cy >= c.sh {
			continue
		}
		rowStart := int(cy/c.k) * c.w
		for x := b.Min.X; x < b.Max.X; x++ {
			cx := gx + int64(x-b.Min.X) - c.ox
			if cx < 0 || cx >= c.sw {
				continue
			}
			i := rowStart + int(cx/c.k)
			var r, g, bl, a uint32
			if nrgba != nil {
				o := nrgba.PixOffset(x, y)
				a = uint32(nrgba.Pix[o+3])
				if a == 0 {
					continue
				}
				r, g, bl = uint32(nrgba.Pix[o])*a/255, uint32(nrgba.Pix[o+1])*a/255, uint32(nrgba.Pix[o+2])*a/255
			} else {
				r, g, bl, a = pixel(img, x, y)
			}
			s := c.sum[4*i : 4*i+4 : 4*i+4]
			s[0] += r
			s[1] += g
			s[2] += bl
			s[3] += a
		}
	}
}

// pixel returns img's pixel at (x, y) as 8-bit premultiplied RGBA, reading
// the image formats PNG tiles decode to directly.
func pixel(img image.Image, x, y int) (r, g, b, a uint32) {
	switch m := img.(type) {
	case *image.NRGBA:
		o := m.PixOffset(x, y)
		a = uint32(m.Pix[o+3])
		return uint32(m.Pix[o]) * a / 255, uint32(m.Pix[o+1]) * a / 255, uint32(m.Pix[o+2]) * a / 255, a
	case *image.RGBA:
		o := m.PixOffset(x, y)
		return uint32(m.Pix[o]), uint32(m.Pix[o+1]), uint32(m.Pix[o+2]), uint32(m.Pix[o+3])
	}
	r, g, b, a = img.At(x, y).RGBA()
	return r >> 8, g >> 8, b >> 8, a >> 8
}

// image returns the canvas's pixels: each the average of the source
// pixels it spans within the box's pixels, those the tiles did not reach
// counting as clear.
func (c *canvas) image() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	for y := range c.h {
		ny := min(c.k, c.sh-int64(y)*c.k)
		for x := range c.w {
			n := uint32(ny * min(c.k, c.sw-int64(x)*c.k))
			i := y*c.w + x
			img.SetRGBA(x, y, color.RGBA{R: uint8(c.sum[4*i] / n), G: uint8(c.sum[4*i+1] / n),
				B: uint8(c.sum[4*i+2] / n), A: uint8(c.sum[4*i+3] / n)})
		}
	}
	return img
}

// thumbnail resamples img, the canvas's image, to tw×th pixels over the
// exported box exactly: each pixel averages the canvas pixels whose centres
// fall in it (the nearest one when none does, to enlarge), and is clear
// when its centre is outside the exported area.
func (c *canvas) thumbnail(img *image.RGBA, j export.Job, tw, th int) *image.RGBA {
	b := j.Box()
	// Canvas pixel coordinates of a longitude and of a latitude.
	u := func(lon float64) float64 { return ((lon+180)/pixelDegrees(c.z) - float64(c.ox)) / float64(c.k) }
	v := func(lat float64) float64 { return ((90-lat)/pixelDegrees(c.z) - float64(c.oy)) / float64(c.k) }
	dx, dy := b.Width()/float64(tw), b.Height()/float64(th)
	cols := make([][2]int, tw)
	for tx := range tw {
		cols[tx][0], cols[tx][1] = centresIn(u(b.West+float64(tx)*dx), u(b.West+float64(tx+1)*dx), c.w)
	}
	out := image.NewRGBA(image.Rect(0, 0, tw, th))
	inside := make([]bool, tw)
	for ty := range th {
		y0, y1 := centresIn(v(b.North-float64(ty)*dy), v(b.North-float64(ty+1)*dy), c.h)
		j.InsideRow(b.North-(float64(ty)+0.5)*dy, b.West+0.5*dx, dx, inside)
		for tx := range tw {
			if !inside[tx] {
				continue
			}
			x0, x1 := cols[tx][0], cols[tx][1]
			var s [4]uint32
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					o := img.PixOffset(x, y)
					s[0] += uint32(img.Pix[o])
					s[1] += uint32(img.Pix[o+1])
					s[2] += uint32(img.Pix[o+2])
					s[3] += uint32(img.Pix[o+3])
				}
			}
			n := uint32((y1 - y0) * (x1 - x0))
			o := out.PixOffset(tx, ty)
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] =
				uint8(s[0]/n), uint8(s[1]/n), uint8(s[2]/n), uint8(s[3]/n)
		}
	}
	return out
}

// centresIn returns the canvas pixels [lo, hi) of n whose centres lie in
// [a, b), in canvas pixel coordinates; when none does, the one holding
// the span's middle. The result is within [0, n) and never empty.
func centresIn(a, b float64, n int) (lo, hi int) {
	lo, hi = int(math.Ceil(a-0.5)), int(math.Ceil(b-0.5))
	if hi <= lo {
		lo = int(math.Floor((a + b) / 2))
		hi = lo + 1
	}
	lo, hi = min(max(lo, 0), n-1), min(max(hi, 1), n)
	return lo, max(hi, lo+1)
}

// thumbnailSize returns the width and height of a thumbnail of the
// exported box whose longest side is size pixels.
func thumbnailSize(j export.Job, size int) (w, h int) {
	bw, bh := j.Box().Width(), j.Box().Height()
	if !(bw > 0) || !(bh > 0) {
		return size, size
	}
	if bw >= bh {
		return size, max(int(math.Round(float64(size)*bh/bw)), 1)
	}
	return max(int(math.Round(float64(size)*bw/bh)), 1), size
}
