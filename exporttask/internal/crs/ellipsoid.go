package crs

import "math"

// ellipsoid is a reference ellipsoid: semi-major axis a in metres and
// squared eccentricity es.
type ellipsoid struct {
	a, es float64
}

// fromInvFlat returns the ellipsoid of semi-major axis a and inverse
// flattening rf.
func fromInvFlat(a, rf float64) ellipsoid {
	f := 1 / rf
	return ellipsoid{a: a, es: 2*f - f*f}
}

// fromAxes returns the ellipsoid of semi-axes a and b.
func fromAxes(a, b float64) ellipsoid {
	return ellipsoid{a: a, es: 1 - (b*b)/(a*a)}
}

// The ellipsoids of the supported datums (EPSG 7030, 7019, 7008).
var (
	wgs84Ellipsoid = fromInvFlat(6378137, 298.257223563)
	grs80Ellipsoid = fromInvFlat(6378137, 298.257222101)
	clarke1866     = fromAxes(6378206.4, 6356583.8)
)

// b returns the semi-minor axis.
func (e ellipsoid) b() float64 { return e.a * math.Sqrt(1-e.es) }

// e returns the first eccentricity.
func (e ellipsoid) e() float64 { return math.Sqrt(e.es) }
