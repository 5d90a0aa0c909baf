package exporttask

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// The GeoJSON object types this package reads and writes.
const (
	TypeFeatureCollection = "FeatureCollection"
	TypeFeature           = "Feature"
	TypePolygon           = "Polygon"
	TypeMultiPolygon      = "MultiPolygon"
)

// FeatureCollection is a GeoJSON FeatureCollection (RFC 7946, section 3.3):
// the region of interest of a task, checked by [CreateRequest.Validate].
//
// ROI is optional: without it the whole record is exported. When present it
// is a GeoJSON FeatureCollection (RFC 7946) that must
//
//   - have "type": "FeatureCollection" and 1 to [MaxFeatures] features: an
//     empty features array is rejected, as a region without area is a
//     client mistake; leave ROI out to export the whole record;
//   - hold only Features ("type": "Feature") with a "properties" member
//     (an object whose values may be anything, null included, within the
//     limits of keywords; or null itself) and a geometry of type Polygon or MultiPolygon (a null
//     geometry or any other type is rejected, naming the accepted types);
//   - have, in each polygon, at least one linear ring, and in each ring 4
//     to [MaxRingPositions] positions, the last equal to the first;
//   - have rings that enclose an area and neither cross nor touch
//     themselves or each other, each hole inside its exterior ring and
//     outside the other holes;
//   - have positions of 2 or 3 finite numbers, longitude in [-180, 180]
//     and latitude in [-90, 90] degrees (the optional third is an
//     altitude in meters);
//   - have at most [MaxPositions] positions in all.
//
// Members other than those named (such as "bbox", "id" or foreign members)
// are rejected like any unknown field. Ring orientation (the right-hand
// rule) is not checked: RFC 7946 asks parsers not to reject on it.
type FeatureCollection struct {
	Type     string    `json:"type"` // always "FeatureCollection"
	Features []Feature `json:"features"`
}

// Feature is a GeoJSON Feature whose geometry is a Polygon or MultiPolygon.
//
// Properties is the feature's "properties" member: an object whose values
// may be any JSON value, null included. RFC 7946 lets the member itself be
// null, and so do we: a nil map is written as null, an empty one as {}, so
// a feature reads back exactly as the client sent it. The member must be
// present in a request (RFC 7946, section 3.2).
type Feature struct {
	Type       string         `json:"type"` // always "Feature"
	Properties map[string]any `json:"properties"`
	Geometry   *Geometry      `json:"geometry"`
}

// Position is a GeoJSON position: longitude and latitude in degrees (WGS 84),
// optionally followed by an altitude in meters. A valid position has 2 or 3
// finite numbers.
type Position []float64

// Geometry is a GeoJSON Polygon or MultiPolygon (RFC 7946, sections 3.1.6
// and 3.1.7). Its JSON form is {"type": ..., "coordinates": ...}; the
// coordinates are read into and written from Polygon or MultiPolygon,
// according to Type. The other field stays nil.
//
// A geometry of another type decodes without error, with its coordinates
// dropped, so that validation can say which types are accepted; it cannot be
// encoded.
type Geometry struct {
	Type string // TypePolygon or TypeMultiPolygon
	// Polygon holds a Polygon's linear rings: the exterior ring first, then
	// any holes. Each ring is closed (its last position equals its first).
	Polygon [][]Position
	// MultiPolygon holds a MultiPolygon's polygons, each as Polygon above.
	MultiPolygon [][][]Position
}

// NewPolygon returns a Polygon geometry with the given rings.
func NewPolygon(rings ...[]Position) *Geometry {
	return &Geometry{Type: TypePolygon, Polygon: rings}
}

// NewMultiPolygon returns a MultiPolygon geometry with the given polygons.
func NewMultiPolygon(polygons ...[][]Position) *Geometry {
	return &Geometry{Type: TypeMultiPolygon, MultiPolygon: polygons}
}

// Polygons returns the geometry's polygons, each as its rings: the one
// polygon of a Polygon, or those of a MultiPolygon; nil for another type.
// The slices are g's own, not copies.
func (g *Geometry) Polygons() [][][]Position {
	switch g.Type {
	case TypePolygon:
		if g.Polygon == nil {
			return nil
		}
		return [][][]Position{g.Polygon}
	case TypeMultiPolygon:
		return g.MultiPolygon
	}
	return nil
}

// geometryJSON is the wire form of a Geometry, with coordinates left raw
// until the type is known.
type geometryJSON struct {
	Type        string          `json:"type"`
	Coordinates json.RawMessage `json:"coordinates"`
}

// MarshalJSON writes {"type", "coordinates"}, taking the coordinates from
// Polygon or MultiPolygon according to Type. Any other type is an error, and
// so is a coordinate that is not finite. The bytes are those encoding/json
// writes for the coordinates' slices, written without reflection: a region
// of interest holds up to MaxPositions positions.
func (g Geometry) MarshalJSON() ([]byte, error) {
	var b []byte
	var err error
	switch g.Type {
	case TypePolygon:
		b = append(make([]byte, 0, 64+40*positions(g.Polygon)), `{"type":"Polygon","coordinates":`...)
		b, err = appendRings(b, g.Polygon)
	case TypeMultiPolygon:
		n := 0
		for _, p := range g.MultiPolygon {
			n += positions(p)
		}
		b = append(make([]byte, 0, 64+40*n), `{"type":"MultiPolygon","coordinates":`...)
		if g.MultiPolygon == nil {
			b = append(b, "null"...)
			break
		}
		b = append(b, '[')
		for i, p := range g.MultiPolygon {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendRings(b, p); err != nil {
				break
			}
		}
		b = append(b, ']')
	default:
		return nil, fmt.Errorf("exporttask: cannot encode a geometry of type %q: only %s and %s are supported",
			g.Type, TypePolygon, TypeMultiPolygon)
	}
	if err != nil {
		return nil, fmt.Errorf("exporttask: encoding a %s: %w", g.Type, err)
	}
	return append(b, '}'), nil
}

// positions counts the positions of rings.
func positions(rings [][]Position) (n int) {
	for _, r := range rings {
		n += len(r)
	}
	return n
}

// appendRings appends rings as encoding/json writes a [][]Position.
func appendRings(b []byte, rings [][]Position) ([]byte, error) {
	if rings == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, r := range rings {
		if i > 0 {
			b = append(b, ',')
		}
		if r == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '[')
		for k, pos := range r {
			if k > 0 {
				b = append(b, ',')
			}
			if pos == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for n, v := range pos {
				if n > 0 {
					b = append(b, ',')
				}
				var err error
				if b, err = appendNumber(b, v); err != nil {
					return nil, err
				}
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// appendMicros appends v the way appendNumber does when v is the double
// nearest a decimal with at most 6 decimals and |v| is in [1e-6, 1e9), as
// coordinates mostly are; ok is false for any other v. Below 1e9 two such
// decimals are further apart than two doubles, so the decimal is v's
// shortest representation, which strconv would find more slowly.
func appendMicros(b []byte, v float64) (_ []byte, ok bool) {
	a := math.Abs(v)
	if !(a >= 1e-6 && a < 1e9) {
		return b, false
	}
	n := math.Round(a * 1e6)
	if n/1e6 != a {
		return b, false
	}
	if v < 0 {
		b = append(b, '-')
	}
	u := uint64(n)
	b = strconv.AppendUint(b, u/1e6, 10)
	if frac := u % 1e6; frac != 0 {
		var d [7]byte
		d[0] = '.'
		for i := 6; i > 0; i-- {
			d[i] = byte('0' + frac%10)
			frac /= 10
		}
		end := 7
		for d[end-1] == '0' {
			end--
		}
		b = append(b, d[:end]...)
	}
	return b, true
}

// appendNumber appends v as encoding/json writes a float64: the shortest
// decimal that reads back as v, in exponent form below 1e-6 and from 1e21
// (with at least two exponent digits left out: 1e-7, not 1e-07).
func appendNumber(b []byte, v float64) ([]byte, error) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, &json.UnsupportedValueError{Value: reflect.ValueOf(v), Str: strconv.FormatFloat(v, 'g', -1, 64)}
	}
	if b, ok := appendMicros(b, v); ok {
		return b, nil
	}
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// UnmarshalJSON reads a geometry object. The coordinates of a Polygon or
// MultiPolygon must have that type's nesting; those of another type are
// ignored (Type keeps the name, for validation to report).
func (g *Geometry) UnmarshalJSON(b []byte) error {
	var raw geometryJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("exporttask: decoding a geometry: %w", err)
	}
	out := Geometry{Type: raw.Type}
	if len(raw.Coordinates) > 0 {
		var err error
		switch raw.Type {
		case TypePolygon:
			err = json.Unmarshal(raw.Coordinates, &out.Polygon)
		case TypeMultiPolygon:
			err = json.Unmarshal(raw.Coordinates, &out.MultiPolygon)
		}
		if err != nil {
			return fmt.Errorf("exporttask: decoding the coordinates of a %s: %w", raw.Type, err)
		}
	}
	*g = out
	return nil
}
