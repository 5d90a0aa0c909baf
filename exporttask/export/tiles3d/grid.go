package tiles3d

import (
	"fmt"
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// tileID names a tile of the EPSG:4326 grid: two tiles at zoom 0, each
// 180° wide, halving per level; x counts from -180° eastwards, y from +90°
// southwards.
type tileID struct{ z, x, y int }

// box returns the tile's extent in degrees.
func (t tileID) box() geom.BBox {
	size := 180 / math.Exp2(float64(t.z))
	w, n := -180+float64(t.x)*size, 90-float64(t.y)*size
	return geom.BBox{West: w, South: n - size, East: w + size, North: n}
}

// uri returns the content's path inside the tileset.
func (t tileID) uri() string { return fmt.Sprintf("tiles/%d/%d/%d.glb", t.z, t.x, t.y) }

// children returns the four tiles one level down.
func (t tileID) children() [4]tileID {
	x, y, z := 2*t.x, 2*t.y, t.z+1
	return [4]tileID{{z, x, y}, {z, x + 1, y}, {z, x, y + 1}, {z, x + 1, y + 1}}
}

// tilesCovering returns the zoom-z tiles whose extent meets b's interior.
func tilesCovering(z int, b geom.BBox) []tileID {
	size := 180 / math.Exp2(float64(z))
	const eps = 1e-9
	x0, x1 := int(math.Floor((b.West+180)/size+eps)), int(math.Ceil((b.East+180)/size-eps))
	y0, y1 := int(math.Floor((90-b.North)/size+eps)), int(math.Ceil((90-b.South)/size-eps))
	var out []tileID
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			out = append(out, tileID{z, x, y})
		}
	}
	return out
}

// shrink returns b moved inwards by a nanodegree on each side, so that boxes
// which only share an edge do not count as meeting. A box narrower than two
// nanodegrees (a wall or a flat face seen from above) is moved in by a
// quarter of its size instead, so that it never turns inside out.
func shrink(b geom.BBox) geom.BBox {
	const eps = 1e-9
	ex, ey := min(eps, b.Width()/4), min(eps, b.Height()/4)
	return geom.BBox{West: b.West + ex, South: b.South + ey, East: b.East - ex, North: b.North - ey}
}
