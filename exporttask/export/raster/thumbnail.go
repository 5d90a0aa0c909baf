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
		if math.Max(j.Box.Width(), j.Box.Height())/pixelDegrees(l.Zoom) >= thumbnailDetail {
			break
		}
	}
	return pick
}

// canvas is the exported area drawn at one level: premultiplied RGBA
// sums of the source pixels falling in each canvas pixel.
type canvas struct {
	z      int
	ox, oy int64 // the level's pixel at the canvas's top-left corner
	k      int64 // source pixels per canvas pixel, each way
	w, h   int
	sum    []uint32 // 4 per pixel
	count  []uint32
}

// drawThumbnails composites the exported area from the selected source
// tiles of a suitable level, clears what lies outside the area, and
// returns each thumbnail as PNG, in the order of thumbnails().
func drawThumbnails(ctx context.Context, src *source, j export.Job, sel selection) ([][]byte, error) {
	l := thumbnailLevel(j, sel)
	c := newCanvas(j, l.Zoom)
	if err := c.drawTiles(ctx, src, l); err != nil {
		return nil, err
	}
	img := c.image(j)
	var out [][]byte
	for _, t := range thumbnails() {
		var buf bytes.Buffer
		w, h := thumbnailSize(j, t.Size)
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&buf, resize(img, w, h)); err != nil {
			return nil, fmt.Errorf("encoding %s: %w", t.Name, err)
		}
		out = append(out, buf.Bytes())
	}
	return out, nil
}

func newCanvas(j export.Job, z int) *canvas {
	p := pixelDegrees(z)
	x0, x1 := math.Floor((j.Box.West+180)/p), math.Ceil((j.Box.East+180)/p)
	y0, y1 := math.Floor((90-j.Box.North)/p), math.Ceil((90-j.Box.South)/p)
	w, h := max(int64(x1-x0), 1), max(int64(y1-y0), 1)
	k := max((max(w, h)+canvasLimit-1)/canvasLimit, 1)
	c := &canvas{z: z, ox: int64(x0), oy: int64(y0), k: k, w: int((w + k - 1) / k), h: int((h + k - 1) / k)}
	c.sum = make([]uint32, 4*c.w*c.h)
	c.count = make([]uint32, c.w*c.h)
	return c
}

// drawTiles adds the selected tiles of level l (PNG, JPEG or WebP).
func (c *canvas) drawTiles(ctx context.Context, src *source, l level) error {
	for _, r := range l.runs {
		for col := r.col0; col <= r.col1; col++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			data, err := src.read(ctx, l.Zoom, col, r.row)
			if err != nil {
				return fmt.Errorf("reading level %d for the thumbnails: %w", l.Zoom, err)
			}
			img, _, err := image.Decode(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("decoding tile %d/%d/%d: %w", l.Zoom, col, r.row, err)
			}
			c.add(img, col*TileSize, r.row*TileSize)
		}
	}
	return nil
}

// add accumulates img, whose top-left pixel is the level's pixel (gx, gy).
func (c *canvas) add(img image.Image, gx, gy int64) {
	b := img.Bounds()
	nrgba, _ := img.(*image.NRGBA)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		cy := gy + int64(y-b.Min.Y) - c.oy
		if cy < 0 || cy/c.k >= int64(c.h) {
			continue
		}
		rowStart := int(cy/c.k) * c.w
		for x := b.Min.X; x < b.Max.X; x++ {
			cx := gx + int64(x-b.Min.X) - c.ox
			if cx < 0 || cx/c.k >= int64(c.w) {
				continue
			}
			i := rowStart + int(cx/c.k)
			var r, g, bl, a uint32
			if nrgba != nil {
				o := nrgba.PixOffset(x, y)
				a = uint32(nrgba.Pix[o+3])
				if a == 0 {
					c.count[i]++
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
			c.count[i]++
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

// image returns the canvas with the pixels outside the job's area clear.
func (c *canvas) image(j export.Job) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	p := pixelDegrees(c.z) * float64(c.k)
	west, north := float64(c.ox)*pixelDegrees(c.z)-180, 90-float64(c.oy)*pixelDegrees(c.z)
	inside := make([]bool, c.w)
	for y := range c.h {
		j.InsideRow(north-(float64(y)+0.5)*p, west+0.5*p, p, inside)
		for x := range c.w {
			i := y*c.w + x
			n := c.count[i]
			if n == 0 || !inside[x] {
				continue
			}
			// Pixels the tiles did not reach count as clear.
			n = uint32(c.k * c.k)
			img.SetRGBA(x, y, color.RGBA{R: uint8(c.sum[4*i] / n), G: uint8(c.sum[4*i+1] / n),
				B: uint8(c.sum[4*i+2] / n), A: uint8(c.sum[4*i+3] / n)})
		}
	}
	return img
}

// thumbnailSize returns the width and height of a thumbnail of the
// exported box whose longest side is size pixels.
func thumbnailSize(j export.Job, size int) (w, h int) {
	bw, bh := j.Box.Width(), j.Box.Height()
	if !(bw > 0) || !(bh > 0) {
		return size, size
	}
	if bw >= bh {
		return size, max(int(math.Round(float64(size)*bh/bw)), 1)
	}
	return max(int(math.Round(float64(size)*bw/bh)), 1), size
}

// resize scales img to tw×th pixels, averaging the source pixels under
// each new one (or repeating them, to enlarge).
func resize(img *image.RGBA, tw, th int) *image.RGBA {
	sw, sh := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewRGBA(image.Rect(0, 0, tw, th))
	for ty := range th {
		y0, y1 := span(ty, th, sh)
		for tx := range tw {
			x0, x1 := span(tx, tw, sw)
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

// span returns the source pixels [lo, hi) under target pixel t of n, for
// a source of m pixels: at least one.
func span(t, n, m int) (lo, hi int) {
	lo = t * m / n
	hi = max((t+1)*m/n, lo+1)
	return lo, min(hi, m)
}
