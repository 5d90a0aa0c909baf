package tiles3d

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
)

// Thumbnail sizes: the longest side in pixels.
const (
	thumbSmall  = 128
	thumbMedium = 256
	thumbLarge  = 512
)

// triangle is one mesh triangle in degrees and meters.
type triangle [3][3]float64 // (lon, lat, h) each

// loadTriangles decodes the contents into geographic triangles.
func loadTriangles(dir string, uris []string) ([]triangle, error) {
	var out []triangle
	for _, u := range uris {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(u)))
		if err != nil {
			return nil, err
		}
		m, err := glb.Decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u, err)
		}
		out = slices.Grow(out, len(m.Indices)/3)
		t := fromGLTF(m.Translation)
		geo := make([][3]float64, len(m.Positions)/3)
		for i := range geo {
			off := fromGLTF([3]float64{float64(m.Positions[3*i]), float64(m.Positions[3*i+1]), float64(m.Positions[3*i+2])})
			lon, lat, h := fromECEF([3]float64{t[0] + off[0], t[1] + off[1], t[2] + off[2]})
			geo[i] = [3]float64{lon, lat, h}
		}
		for i := 0; i+2 < len(m.Indices); i += 3 {
			out = append(out, triangle{geo[m.Indices[i]], geo[m.Indices[i+1]], geo[m.Indices[i+2]]})
		}
	}
	return out, nil
}

// thumbSize returns the image size whose longest side is long for box b.
func thumbSize(b geom.BBox, long int) (w, h int) {
	if b.Width() >= b.Height() {
		return long, max(1, int(math.Round(float64(long)*b.Height()/b.Width())))
	}
	return max(1, int(math.Round(float64(long)*b.Width()/b.Height()))), long
}

// render draws a shaded top-down view of the triangles over j's box, the
// longest side long pixels; pixels whose centre is outside j's area are
// transparent. Later triangles draw over earlier ones.
func render(j export.Job, tris []triangle, long int) *image.NRGBA {
	b := j.Box
	w, h := thumbSize(b, long)
	hs := make([]float64, w*h)
	for i := range hs {
		hs[i] = math.NaN()
	}
	px := func(lon, lat float64) (float64, float64) {
		return (lon - b.West) / b.Width() * float64(w), (b.North - lat) / b.Height() * float64(h)
	}
	for _, t := range tris {
		x0, y0 := px(t[0][0], t[0][1])
		x1, y1 := px(t[1][0], t[1][1])
		x2, y2 := px(t[2][0], t[2][1])
		d := (y1-y2)*(x0-x2) + (x2-x1)*(y0-y2)
		if d == 0 {
			continue
		}
		minX, maxX := max(0, int(math.Floor(min(x0, x1, x2)))), min(w-1, int(math.Ceil(max(x0, x1, x2))))
		minY, maxY := max(0, int(math.Floor(min(y0, y1, y2)))), min(h-1, int(math.Ceil(max(y0, y1, y2))))
		for y := minY; y <= maxY; y++ {
			cy := float64(y) + 0.5
			for x := minX; x <= maxX; x++ {
				cx := float64(x) + 0.5
				a := ((y1-y2)*(cx-x2) + (x2-x1)*(cy-y2)) / d
				c := ((y2-y0)*(cx-x2) + (x0-x2)*(cy-y2)) / d
				e := 1 - a - c
				const eps = -1e-9
				if a < eps || c < eps || e < eps {
					continue
				}
				hs[y*w+x] = a*t[0][2] + c*t[1][2] + e*t[2][2]
			}
		}
	}
	return shade(j, hs, w, h)
}

// exaggeration scales slopes for the hillshade.
const exaggeration = 5

// shade turns heights into a hillshaded, height-tinted image.
func shade(j export.Job, hs []float64, w, h int) *image.NRGBA {
	b := j.Box
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	dyM := b.Height() / float64(h) * metersPerDegree
	// Light from the north-west, 45° up.
	lx, ly, lz := -math.Sqrt(0.25), math.Sqrt(0.25), math.Sqrt(0.5)
	at := func(x, y int) float64 {
		x, y = min(max(x, 0), w-1), min(max(y, 0), h-1)
		return hs[y*w+x]
	}
	inside := make([]bool, w)
	step := b.Width() / float64(w)
	for y := range h {
		lat := b.North - (float64(y)+0.5)*b.Height()/float64(h)
		dxM := b.Width() / float64(w) * metersPerDegree * math.Cos(lat*math.Pi/180)
		j.InsideRow(lat, b.West+0.5*step, step, inside)
		for x := range w {
			v := hs[y*w+x]
			if math.IsNaN(v) || !inside[x] {
				continue // transparent
			}
			// Slopes east and north, exaggerated so gentle hills show.
			gx := exaggeration * (nanTo(at(x+1, y), v) - nanTo(at(x-1, y), v)) / (2 * dxM)
			gy := exaggeration * (nanTo(at(x, y-1), v) - nanTo(at(x, y+1), v)) / (2 * dyM)
			nl := math.Sqrt(gx*gx + gy*gy + 1)
			lit := math.Max(0, (-gx*lx-gy*ly+lz)/nl)
			r, g, bl := tint(v)
			k := 0.35 + 0.65*lit
			img.SetNRGBA(x, y, color.NRGBA{uint8(r * k), uint8(g * k), uint8(bl * k), 255})
		}
	}
	return img
}

func nanTo(v, alt float64) float64 {
	if math.IsNaN(v) {
		return alt
	}
	return v
}

// tint is a height colour ramp: green lowlands, tan hills, pale peaks.
func tint(h float64) (r, g, b float64) {
	stops := [...]struct{ h, r, g, b float64 }{
		{0, 92, 140, 80}, {300, 170, 170, 100}, {600, 180, 140, 95}, {1000, 235, 230, 220},
	}
	if h <= stops[0].h {
		return stops[0].r, stops[0].g, stops[0].b
	}
	for i := 1; i < len(stops); i++ {
		if h <= stops[i].h {
			s0, s1 := stops[i-1], stops[i]
			f := (h - s0.h) / (s1.h - s0.h)
			return s0.r + f*(s1.r-s0.r), s0.g + f*(s1.g-s0.g), s0.b + f*(s1.b-s0.b)
		}
	}
	s := stops[len(stops)-1]
	return s.r, s.g, s.b
}
