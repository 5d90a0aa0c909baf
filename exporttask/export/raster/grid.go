package raster

import (
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// The tile grid of every RASTER record and export: EPSG:4326, two 256×256
// tiles at level 0 covering longitude -180..180 and latitude -90..90, each
// level doubling the tiles in both directions. Row 0 is the top (north) row.
const (
	// TileSize is the width and height of a tile, in pixels.
	TileSize = 256
	// MaxLevel is the deepest level this package accepts (tiles of about
	// 4 cm at the equator).
	MaxLevel = 30
)

// gridBox is the extent of the whole tile grid.
var gridBox = geom.BBox{West: -180, South: -90, East: 180, North: 90}

// tileDegrees is the width and height of a tile at level z, in degrees.
func tileDegrees(z int) float64 { return 180 / math.Ldexp(1, z) }

// pixelDegrees is the size of a pixel at level z, in degrees.
func pixelDegrees(z int) float64 { return tileDegrees(z) / TileSize }

// matrixSize returns the number of tile columns and rows at level z.
func matrixSize(z int) (width, height int64) {
	return int64(1) << (z + 1), int64(1) << z
}

// tileBox is the extent of tile (col, row) at level z.
func tileBox(z int, col, row int64) geom.BBox {
	d := tileDegrees(z)
	w, n := -180+float64(col)*d, 90-float64(row)*d
	return geom.BBox{West: w, South: n - d, East: w + d, North: n}
}

// tileRange is the block of tiles of one level that cover a box: columns
// Col0..Col1 and rows Row0..Row1, inclusive. Empty when Col0 > Col1.
type tileRange struct {
	Col0, Col1, Row0, Row1 int64
}

// Count returns the number of tiles in r.
func (r tileRange) Count() int64 {
	if r.Col0 > r.Col1 || r.Row0 > r.Row1 {
		return 0
	}
	return (r.Col1 - r.Col0 + 1) * (r.Row1 - r.Row0 + 1)
}

// rangeOf returns the tiles of level z whose area overlaps b: a tile that
// only touches b's edge is left out, unless b has no width or height.
func rangeOf(b geom.BBox, z int) tileRange {
	b = b.Intersect(gridBox)
	if b.Empty() {
		return tileRange{Col0: 1, Col1: 0}
	}
	d := tileDegrees(z)
	w, h := matrixSize(z)
	col0 := int64(math.Floor((b.West + 180) / d))
	col1 := int64(math.Ceil((b.East+180)/d)) - 1
	row0 := int64(math.Floor((90 - b.North) / d))
	row1 := int64(math.Ceil((90-b.South)/d)) - 1
	col1, row1 = max(col1, col0), max(row1, row0)
	return tileRange{
		Col0: clamp(col0, 0, w-1), Col1: clamp(col1, 0, w-1),
		Row0: clamp(row0, 0, h-1), Row1: clamp(row1, 0, h-1),
	}
}

func clamp(v, lo, hi int64) int64 { return min(max(v, lo), hi) }

// snapOut returns b grown to the pixel grid of level z, each edge moved
// outward to the nearest pixel edge (an edge within a billionth of a pixel
// of one stays on it), and kept within the grid. A GeoPackage whose
// gpkg_contents holds such a box is read by GDAL with its origin on the
// grid, where the tiles' pixels are: a box between pixel edges would place
// them up to a pixel off.
func snapOut(b geom.BBox, z int) geom.BBox {
	p := pixelDegrees(z)
	const eps = 1e-9
	down := func(v, origin float64) float64 { return origin + math.Floor((v-origin)/p+eps)*p }
	up := func(v, origin float64) float64 { return origin + math.Ceil((v-origin)/p-eps)*p }
	return geom.BBox{
		West: down(b.West, -180), East: up(b.East, -180),
		South: 90 - up(90-b.South, 0), North: 90 - down(90-b.North, 0),
	}.Intersect(gridBox)
}
