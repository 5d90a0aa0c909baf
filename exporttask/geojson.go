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

// FeatureCollection is a GeoJSON FeatureCollection (RFC 7946): the region
// of interest of a task. Without one the whole record is exported. It has 1
// to [MaxFeatures] Features, each with a "properties" member and a Polygon
// or MultiPolygon geometry whose rings are closed, hold 4 to
// [MaxRingPositions] positions of [lon, lat(, alt)] in range, enclose an area
// and neither cross nor touch; holes lie inside their exterior ring and
// outside each other; at most [MaxPositions] positions in all. Other members
// ("bbox", "id", foreign members) are refused; ring orientation is not
// checked (RFC 7946 asks parsers not to).
type FeatureCollection struct {
	Type     string    `json:"type"` // always "FeatureCollection"
	Features []Feature `json:"features"`
}

// Feature is a GeoJSON Feature whose geometry is a Polygon or MultiPolygon.
// Its "properties" member is required; a nil Properties is written as null,
// an empty one as {}, so a feature reads back as the client sent it.
type Feature struct {
	Type       string         `json:"type"` // always "Feature"
	Properties map[string]any `json:"properties"`
	Geometry   *Geometry      `json:"geometry"`
}

// Position is a GeoJSON position: longitude and latitude in degrees (WGS 84),
// optionally followed by an altitude in meters. A valid position has 2 or 3
// finite numbers.
type Position []float64

// Geometry is a GeoJSON Polygon or MultiPolygon: its coordinates are in
// Polygon or MultiPolygon, according to Type. A geometry of another type
// decodes with its coordinates dropped, for validation to name the accepted
// types, and cannot be encoded.
type Geometry struct {
	Type         string         // TypePolygon or TypeMultiPolygon
	Polygon      [][]Position   // closed rings: the exterior, then any holes
	MultiPolygon [][][]Position // polygons, each as Polygon
}

// NewPolygon returns a Polygon geometry with the given rings.
func NewPolygon(rings ...[]Position) *Geometry {
	return &Geometry{Type: TypePolygon, Polygon: rings}
}

// NewMultiPolygon returns a MultiPolygon geometry with the given polygons.
func NewMultiPolygon(polygons ...[][]Position) *Geometry {
	return &Geometry{Type: TypeMultiPolygon, MultiPolygon: polygons}
}

// Polygons returns the geometry's polygons (g's own slices): the one of a
// Polygon, those of a MultiPolygon; nil for another type.
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

// MarshalJSON writes {"type", "coordinates"}, as encoding/json would, without
// reflection; another type or a coordinate that is not finite is an error.
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

// UnmarshalJSON reads a geometry object; a Polygon's or MultiPolygon's
// coordinates must have its nesting, another type's are ignored.
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
