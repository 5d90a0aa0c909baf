package geom

import "math"

// BBox is an axis-aligned box in degrees: West ≤ East, South ≤ North.
type BBox struct {
	West, South, East, North float64
}

// EmptyBox returns a box that contains nothing and grows with Extend.
func EmptyBox() BBox {
	return BBox{West: math.Inf(1), South: math.Inf(1), East: math.Inf(-1), North: math.Inf(-1)}
}

// Empty reports whether b contains no point.
func (b BBox) Empty() bool { return b.West > b.East || b.South > b.North }

// Extend returns b grown to contain the point (x, y).
func (b BBox) Extend(x, y float64) BBox {
	return BBox{West: math.Min(b.West, x), South: math.Min(b.South, y),
		East: math.Max(b.East, x), North: math.Max(b.North, y)}
}

// Intersect returns the part of b inside o; it is Empty when they do not
// meet.
func (b BBox) Intersect(o BBox) BBox {
	return BBox{West: math.Max(b.West, o.West), South: math.Max(b.South, o.South),
		East: math.Min(b.East, o.East), North: math.Min(b.North, o.North)}
}

// Intersects reports whether b and o share at least one point.
func (b BBox) Intersects(o BBox) bool { return !b.Intersect(o).Empty() }

// ContainsPoint reports whether (x, y) is inside b or on its edge.
func (b BBox) ContainsPoint(x, y float64) bool {
	return x >= b.West && x <= b.East && y >= b.South && y <= b.North
}

// Width and Height are the box's extent in degrees.
func (b BBox) Width() float64  { return b.East - b.West }
func (b BBox) Height() float64 { return b.North - b.South }

// Ring returns b's boundary as a closed counter-clockwise ring.
func (b BBox) Ring() Ring {
	return Ring{{b.West, b.South}, {b.East, b.South}, {b.East, b.North}, {b.West, b.North}, {b.West, b.South}}
}
