package tiles3d

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// Thumbnail sizes: the longest side in pixels.
const (
	thumbSmall  = 128
	thumbMedium = 256
	thumbLarge  = 512
)

// triangle is one mesh triangle in degrees and meters.
type triangle [3][3]float64 // (lon, lat, h) each

// Bounds of the work a thumbnail takes, whatever the tileset: beyond any of
// them the thumbnails show the tiles' regions instead (renderFootprint).
const (
	// maxMeshBytes is the largest content file decoded for a thumbnail.
	maxMeshBytes = 64 << 20
	// maxThumbnailTriangles is the most triangles drawn, over all leaf
	// tiles (72 bytes each).
	maxThumbnailTriangles = 1 << 19
	// maxRenderWork is the most pixel tests one thumbnail's drawing makes:
	// the sum, over the triangles, of the pixels of their bounding boxes.
	maxRenderWork = 1 << 26
	// checkEvery is how many triangles are drawn between two looks at
	// the context.
	checkEvery = 4096
)

// mesh is a content file's decoded mesh: positions in the content's own
// frame (glTF axes, before the tile's transforms) and triangle indices.
type mesh struct {
	pos     [][3]float64
	rtc     [3]float64 // a b3dm's RTC_CENTER, added after the axes turn
	indices []uint32
}

// triangles decodes the meshes of the selection's leaf tiles into
// geographic triangles. It returns false, and no triangles, when some leaf
// content is not a mesh this package can place, or the meshes exceed the
// bounds above: the thumbnails then show the tiles' regions (see
// renderFootprint). A content is placed when it is a .glb, or a .b3dm
// holding one, whose glTF has a single node carrying at most a
// translation and a single triangle primitive with indices; its positions
// go from glTF's +Y up to 3D Tiles' +Z up (unless the main tileset's
// asset.gltfUpAxis says Z), then by the b3dm's RTC_CENTER and the tile's
// transforms into ECEF. A content named by several tiles is read and
// decoded once, each in a turn at CPU work of its own (see paced).
func (p *plan) triangles(ctx context.Context) ([]triangle, bool, error) {
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
	root, err := sourcefs.OpenRoot(p.dir)
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	// First decode each content once and count the triangles the leaves
	// draw, then place them: nothing is placed for a selection that would
	// draw too many.
	meshes := map[string]*mesh{}
	total := 0
	for _, n := range p.sel.leaves {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		for _, c := range n.contents {
			var m *mesh
			var ok bool
			err := paced(ctx, func() (err error) {
				m, ok, err = decodeMesh(root, c, meshes)
				return err
			})
			if err != nil || !ok {
				return nil, false, err
			}
			if total += len(m.indices) / 3; total > maxThumbnailTriangles {
				return nil, false, nil
			}
		}
	}
	out := make([]triangle, 0, total)
	for _, n := range p.sel.leaves {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		var ok bool
		if out, ok, err = tileTriangles(root, n, upAxis, meshes, out); err != nil || !ok {
			return nil, false, err
		}
	}
	return out, len(out) > 0, nil
}

// tileTriangles appends the triangles of tile n's contents to out, or
// returns false when one cannot be placed or the triangles would pass
// maxThumbnailTriangles. Meshes already in seen are not read again.
func tileTriangles(root *sourcefs.Root, n *node, upAxis string, seen map[string]*mesh, out []triangle) ([]triangle, bool, error) {
	for _, c := range n.contents {
		m, ok, err := decodeMesh(root, c, seen)
		if err != nil || !ok {
			return nil, false, err
		}
		if len(out)+len(m.indices)/3 > maxThumbnailTriangles {
			return nil, false, nil
		}
		out = m.place(out, n.xform, upAxis)
	}
	return out, true, nil
}

// decodeMesh returns the mesh of content c, from seen when it was decoded
// before, or false when it cannot be placed (see [plan.triangles]).
func decodeMesh(root *sourcefs.Root, c content, seen map[string]*mesh) (*mesh, bool, error) {
	if c.kind != "glb" && c.kind != "b3dm" {
		return nil, false, nil
	}
	if m, ok := seen[c.file]; ok {
		return m, m != nil, nil
	}
	seen[c.file] = nil
	b, err := root.ReadFile(c.file, maxMeshBytes)
	if errors.Is(err, sourcefs.ErrTooLarge) {
		return nil, false, nil
	}
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
	g, err := glb.Decode(b)
	if err != nil {
		return nil, false, nil
	}
	m := &mesh{pos: make([][3]float64, len(g.Positions)/3), rtc: rtc}
	for i := range m.pos {
		m.pos[i] = [3]float64{g.Translation[0] + float64(g.Positions[3*i]), g.Translation[1] + float64(g.Positions[3*i+1]),
			g.Translation[2] + float64(g.Positions[3*i+2])}
	}
	for i := 0; i+2 < len(g.Indices); i += 3 {
		if int(g.Indices[i]) >= len(m.pos) || int(g.Indices[i+1]) >= len(m.pos) || int(g.Indices[i+2]) >= len(m.pos) {
			return nil, false, nil
		}
	}
	m.indices = g.Indices[:len(g.Indices)/3*3]
	seen[c.file] = m
	return m, true, nil
}

// place appends the mesh's triangles, placed by the tile transform xform,
// to out in degrees and meters.
func (m *mesh) place(out []triangle, xform mat4, upAxis string) []triangle {
	geo := make([][3]float64, len(m.pos))
	for i, v := range m.pos {
		if upAxis == "Y" {
			v = fromGLTF(v)
		}
		lon, lat, h := fromECEF(xform.point([3]float64{v[0] + m.rtc[0], v[1] + m.rtc[1], v[2] + m.rtc[2]}))
		geo[i] = [3]float64{lon, lat, h}
	}
	out = slices.Grow(out, len(m.indices)/3)
	for i := 0; i+2 < len(m.indices); i += 3 {
		out = append(out, triangle{geo[m.indices[i]], geo[m.indices[i+1]], geo[m.indices[i+2]]})
	}
	return out
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
// transparent. Later triangles draw over earlier ones. It returns false
// when the drawing would take more than maxRenderWork pixel tests, and
// ctx's error when ctx ends.
func render(ctx context.Context, j export.Job, tris []triangle, long int) (*image.NRGBA, bool, error) {
	b := j.Box()
	w, h := thumbSize(b, long)
	hs := make([]float64, w*h)
	for i := range hs {
		hs[i] = math.NaN()
	}
	px := func(lon, lat float64) (float64, float64) {
		return (lon - b.West) / b.Width() * float64(w), (b.North - lat) / b.Height() * float64(h)
	}
	work := 0
	for i, t := range tris {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
		x0, y0 := px(t[0][0], t[0][1])
		x1, y1 := px(t[1][0], t[1][1])
		x2, y2 := px(t[2][0], t[2][1])
		d := (y1-y2)*(x0-x2) + (x2-x1)*(y0-y2)
		if d == 0 {
			continue
		}
		minX, maxX := max(0, int(math.Floor(min(x0, x1, x2)))), min(w-1, int(math.Ceil(max(x0, x1, x2))))
		minY, maxY := max(0, int(math.Floor(min(y0, y1, y2)))), min(h-1, int(math.Ceil(max(y0, y1, y2))))
		if maxX >= minX && maxY >= minY {
			if work += (maxX - minX + 1) * (maxY - minY + 1); work > maxRenderWork {
				return nil, false, nil
			}
		}
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
	return shade(j, hs, w, h), true, nil
}

// exaggeration scales slopes for the hillshade.
const exaggeration = 5

// shade turns heights into a hillshaded, height-tinted image.
func shade(j export.Job, hs []float64, w, h int) *image.NRGBA {
	b := j.Box()
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
	b := j.Box()
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
