package tiles3d

import (
	"fmt"
	"image"
	"image/color"
	"io"
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

// triangles decodes the meshes of the selection's leaf tiles into
// geographic triangles. It returns false, and no triangles, when some leaf
// content is not a mesh this package can place: the thumbnails then show
// the tiles' regions (see renderFootprint). A content is placed when it is
// a .glb, or a .b3dm holding one, whose glTF has a single node carrying at
// most a translation and a single triangle primitive with indices; its
// positions go from glTF's +Y up to 3D Tiles' +Z up (unless the main
// tileset's asset.gltfUpAxis says Z), then by the b3dm's RTC_CENTER and
// the tile's transforms into ECEF.
func (p *plan) triangles() ([]triangle, bool, error) {
	upAxis := "Y"
	var asset struct {
		GLTFUpAxis string `json:"gltfUpAxis"`
	}
	if err := decodeField(p.src.main.top, "asset", &asset); err == nil && asset.GLTFUpAxis != "" {
		upAxis = asset.GLTFUpAxis
	}
	if upAxis != "Y" && upAxis != "Z" {
		return nil, false, nil
	}
	root, err := os.OpenRoot(p.dir)
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	var out []triangle
	for _, n := range p.sel.leaves {
		tris, ok, err := tileTriangles(root, n, upAxis)
		if err != nil || !ok {
			return nil, false, err
		}
		out = append(out, tris...)
	}
	return out, len(out) > 0, nil
}

// tileTriangles decodes the contents of tile n (see [plan.triangles]), or
// returns false when one cannot be placed.
func tileTriangles(root *os.Root, n *node, upAxis string) ([]triangle, bool, error) {
	var out []triangle
	for _, c := range n.contents {
		if c.kind != "glb" && c.kind != "b3dm" {
			return nil, false, nil
		}
		b, err := readFile(root, c.file)
		if err != nil {
			return nil, false, err
		}
		var rtc [3]float64
		if c.kind == "b3dm" {
			if b, rtc, err = b3dmGLB(b); err != nil {
				return nil, false, fmt.Errorf("%s: %w", c.file, err)
			}
		}
		if !placeable(b) {
			return nil, false, nil
		}
		m, err := glb.Decode(b)
		if err != nil {
			return nil, false, nil
		}
		out = slices.Grow(out, len(m.Indices)/3)
		geo := make([][3]float64, len(m.Positions)/3)
		for i := range geo {
			v := [3]float64{m.Translation[0] + float64(m.Positions[3*i]), m.Translation[1] + float64(m.Positions[3*i+1]),
				m.Translation[2] + float64(m.Positions[3*i+2])}
			if upAxis == "Y" {
				v = fromGLTF(v)
			}
			v = n.xform.point([3]float64{v[0] + rtc[0], v[1] + rtc[1], v[2] + rtc[2]})
			lon, lat, h := fromECEF(v)
			geo[i] = [3]float64{lon, lat, h}
		}
		for i := 0; i+2 < len(m.Indices); i += 3 {
			out = append(out, triangle{geo[m.Indices[i]], geo[m.Indices[i+1]], geo[m.Indices[i+2]]})
		}
	}
	return out, true, nil
}

// readFile reads the file p of the tileset directory.
func readFile(root *os.Root, p string) ([]byte, error) {
	f, err := root.Open(filepath.FromSlash(p))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
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
	b := geom.BBox(j.Box)
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
	b := geom.BBox(j.Box)
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

// renderFootprint draws the regions of the leaf tiles over j's box, the
// longest side long pixels: each filled with the height tint of its
// region's top, outlined darker, transparent where no tile is and outside
// j's area. Finer tiles draw over coarser ones.
func renderFootprint(j export.Job, leaves []*node, long int) *image.NRGBA {
	b := geom.BBox(j.Box)
	w, h := thumbSize(b, long)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	ordered := slices.Clone(leaves)
	slices.SortStableFunc(ordered, func(a, c *node) int { return a.level - c.level })
	for _, n := range ordered {
		rb := n.region.box()
		x0 := int(math.Floor((rb.West - b.West) / b.Width() * float64(w)))
		x1 := int(math.Ceil((rb.East - b.West) / b.Width() * float64(w)))
		y0 := int(math.Floor((b.North - rb.North) / b.Height() * float64(h)))
		y1 := int(math.Ceil((b.North - rb.South) / b.Height() * float64(h)))
		r, g, bl := tint(n.region.hi)
		for y := max(y0, 0); y < min(y1, h); y++ {
			for x := max(x0, 0); x < min(x1, w); x++ {
				k := 1.0
				if x == x0 || x == x1-1 || y == y0 || y == y1-1 {
					k = 0.6
				}
				img.SetNRGBA(x, y, color.NRGBA{uint8(r * k), uint8(g * k), uint8(bl * k), 255})
			}
		}
	}
	inside := make([]bool, w)
	step := b.Width() / float64(w)
	for y := range h {
		j.InsideRow(b.North-(float64(y)+0.5)*b.Height()/float64(h), b.West+0.5*step, step, inside)
		for x := range w {
			if !inside[x] {
				img.SetNRGBA(x, y, color.NRGBA{})
			}
		}
	}
	return img
}
