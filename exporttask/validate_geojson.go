package exporttask

import (
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
)

// validateROI checks a region of interest against RFC 7946 and the limits;
// the rules are listed in the package documentation.
func validateROI(p *problems, ptr string, fc *FeatureCollection) {
	if fc.Type != TypeFeatureCollection {
		p.add(ptr+"/type", `must be "FeatureCollection", got %s`, quoted.Short(fc.Type))
	}
	switch n := len(fc.Features); {
	case n == 0:
		p.add(ptr+"/features", "must have at least one feature; to export the whole record, leave ROI out")
	case n > MaxFeatures:
		p.add(ptr+"/features", "has %d features; at most %d are allowed", n, MaxFeatures)
	}
	total := 0
	rc := newRingChecker()
	for i := range fc.Features {
		total += validateFeature(p, rc, index(ptr+"/features", i), &fc.Features[i])
	}
	if total > MaxPositions {
		p.add(ptr, "has %d positions in all; at most %d are allowed", total, MaxPositions)
	}
}

// validateFeature checks one feature and returns how many positions its
// geometry has.
func validateFeature(p *problems, rc *ringChecker, ptr string, f *Feature) int {
	if f.Type != TypeFeature {
		p.add(ptr+"/type", `must be "Feature", got %s`, quoted.Short(f.Type))
	}
	validateMap(p, ptr+"/properties", f.Properties)
	g := f.Geometry
	ptr += "/geometry"
	if g == nil {
		p.add(ptr, "is required: a Polygon or MultiPolygon")
		return 0
	}
	switch g.Type {
	case TypePolygon:
		return validatePolygon(p, rc, ptr+"/coordinates", g.Polygon)
	case TypeMultiPolygon:
		ptr += "/coordinates"
		if len(g.MultiPolygon) == 0 {
			p.add(ptr, "a MultiPolygon needs at least one polygon")
		}
		n := 0
		for i, poly := range g.MultiPolygon {
			n += validatePolygon(p, rc, index(ptr, i), poly)
		}
		return n
	case "":
		p.add(ptr+"/type", `is required: "Polygon" or "MultiPolygon"`)
	default:
		p.add(ptr+"/type", `must be "Polygon" or "MultiPolygon", got %s`, quoted.Short(g.Type))
	}
	return 0
}

// validatePolygon checks the rings of one polygon and returns how many
// positions they have. When each ring is valid on its own, rc checks their
// shape (see [ringChecker.polygon]).
func validatePolygon(p *problems, rc *ringChecker, ptr string, rings [][]Position) int {
	if len(rings) == 0 {
		p.add(ptr, "a polygon needs at least one linear ring (its exterior)")
	}
	n := 0
	valid := true
	for i, ring := range rings {
		valid = validateRing(p, index(ptr, i), ring) && valid
		n += len(ring)
	}
	if valid && len(rings) > 0 {
		rc.polygon(p, ptr, rings)
	}
	return n
}

// validateRing checks a linear ring and reports whether it is valid: at
// least 4 positions, at most MaxRingPositions, each valid, the last equal
// to the first.
func validateRing(p *problems, ptr string, ring []Position) bool {
	valid := true
	switch n := len(ring); {
	case n < 4:
		p.add(ptr, "a linear ring needs at least 4 positions, got %d", n)
		valid = false
	case n > MaxRingPositions:
		p.add(ptr, "a linear ring may have at most %d positions, got %d", MaxRingPositions, n)
		valid = false
	}
	for i, pos := range ring {
		if !plainPosition(pos) {
			valid = validatePosition(p, index(ptr, i), pos) && valid
		}
	}
	if valid && !samePosition(ring[0], ring[len(ring)-1]) {
		p.add(ptr, "a linear ring must be closed: its last position must equal its first")
		valid = false
	}
	return valid
}

// validatePosition checks one position and reports whether it is valid.
func validatePosition(p *problems, ptr string, pos Position) bool {
	if n := len(pos); n != 2 && n != 3 {
		p.add(ptr, "a position has 2 or 3 numbers (longitude, latitude, optional altitude), got %d", n)
		return false
	}
	valid := true
	for i, v := range pos {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			p.add(index(ptr, i), "must be a finite number")
			valid = false
		}
	}
	if !valid {
		return false
	}
	if lon := pos[0]; lon < -180 || lon > 180 {
		p.add(ptr+"/0", "longitude must be between -180 and 180, got %g", lon)
		valid = false
	}
	if lat := pos[1]; lat < -90 || lat > 90 {
		p.add(ptr+"/1", "latitude must be between -90 and 90, got %g", lat)
		valid = false
	}
	return valid
}

// plainPosition reports whether pos is valid, without building its pointer
// (most are: validatePosition says what is wrong with the others).
func plainPosition(pos Position) bool {
	return len(pos) >= 2 && len(pos) <= 3 &&
		pos[0] >= -180 && pos[0] <= 180 && pos[1] >= -90 && pos[1] <= 90 &&
		(len(pos) == 2 || !math.IsNaN(pos[2]) && !math.IsInf(pos[2], 0))
}

// samePosition reports whether a and b are the same position.
func samePosition(a, b Position) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
