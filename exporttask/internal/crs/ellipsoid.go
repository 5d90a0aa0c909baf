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

// wgs84Ellipsoid returns the WGS 84 ellipsoid (EPSG:7030).
func wgs84Ellipsoid() ellipsoid { return fromInvFlat(6378137, 298.257223563) }

// grs80Ellipsoid returns the GRS 1980 ellipsoid (EPSG:7019).
func grs80Ellipsoid() ellipsoid { return fromInvFlat(6378137, 298.257222101) }

// clarke1866 returns the Clarke 1866 ellipsoid (EPSG:7008).
func clarke1866() ellipsoid { return fromAxes(6378206.4, 6356583.8) }

// b returns the semi-minor axis.
func (e ellipsoid) b() float64 { return e.a * math.Sqrt(1-e.es) }

// e returns the first eccentricity.
func (e ellipsoid) e() float64 { return math.Sqrt(e.es) }
