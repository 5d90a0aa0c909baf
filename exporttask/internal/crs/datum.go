package crs

import "math"

// shift is a Helmert transformation from a datum to WGS 84 between
// geocentric cartesian coordinates, as PROJ's `+proj=helmert` applies it:
// X' = T + (1 + s·1e-6)·R·X, with R the small-angle rotation matrix of the
// coordinate frame convention (EPSG method 9607) or position vector
// convention (9606), and its inverse X = Rᵀ·(X' − T)/(1 + s·1e-6), the
// transpose standing in for the inverse of R as PROJ does. A shift with
// rotations and scale zero is a geocentric translation (EPSG 9603).
type shift struct {
	from       ellipsoid
	tx, ty, tz float64
	r          [3][3]float64
	scale      float64 // 1 + s·1e-6
}

// arcsec is one second of arc in radians.
const arcsec = math.Pi / (180 * 3600)

// newShift returns the Helmert shift with translations in metres,
// rotations in arc seconds and scale difference in parts per million;
// coordinateFrame selects the coordinate frame rotation convention.
func newShift(from ellipsoid, tx, ty, tz, rx, ry, rz, ppm float64, coordinateFrame bool) *shift {
	rx, ry, rz = rx*arcsec, ry*arcsec, rz*arcsec
	r := [3][3]float64{
		{1, -rz, ry},
		{rz, 1, -rx},
		{-ry, rx, 1},
	}
	if coordinateFrame {
		r[0][1], r[1][0] = r[1][0], r[0][1]
		r[0][2], r[2][0] = r[2][0], r[0][2]
		r[1][2], r[2][1] = r[2][1], r[1][2]
	}
	return &shift{from: from, tx: tx, ty: ty, tz: tz, r: r, scale: 1 + ppm*1e-6}
}

// toWGS84 moves geodetic lon, lat (radians) on the shift's datum to WGS 84.
func (s *shift) toWGS84(lam, phi float64) (float64, float64) {
	x, y, z := cartesian(s.from, lam, phi)
	r := &s.r
	x, y, z = s.scale*(r[0][0]*x+r[0][1]*y+r[0][2]*z)+s.tx,
		s.scale*(r[1][0]*x+r[1][1]*y+r[1][2]*z)+s.ty,
		s.scale*(r[2][0]*x+r[2][1]*y+r[2][2]*z)+s.tz
	return geodetic(wgs84Ellipsoid, x, y, z)
}

// fromWGS84 is the inverse of toWGS84.
func (s *shift) fromWGS84(lam, phi float64) (float64, float64) {
	x, y, z := cartesian(wgs84Ellipsoid, lam, phi)
	x, y, z = (x-s.tx)/s.scale, (y-s.ty)/s.scale, (z-s.tz)/s.scale
	r := &s.r
	x, y, z = r[0][0]*x+r[1][0]*y+r[2][0]*z,
		r[0][1]*x+r[1][1]*y+r[2][1]*z,
		r[0][2]*x+r[1][2]*y+r[2][2]*z
	return geodetic(s.from, x, y, z)
}

// cartesian returns the geocentric coordinates of the point at lon lam,
// lat phi (radians), height 0, on ellipsoid e.
func cartesian(e ellipsoid, lam, phi float64) (x, y, z float64) {
	sinPhi, cosPhi := math.Sincos(phi)
	sinLam, cosLam := math.Sincos(lam)
	n := e.a / math.Sqrt(1-e.es*sinPhi*sinPhi)
	return n * cosPhi * cosLam, n * cosPhi * sinLam, n * (1 - e.es) * sinPhi
}

// geodetic returns the lon, lat (radians) of geocentric x, y, z on
// ellipsoid e, by Bowring's closed form (as PROJ's cart does), exact to
// far below a millimetre near the ellipsoid's surface.
func geodetic(e ellipsoid, x, y, z float64) (lam, phi float64) {
	b := e.b()
	e2s := e.es / (1 - e.es)
	p := math.Hypot(x, y)
	s, c := math.Sincos(math.Atan2(z*e.a, p*b))
	phi = math.Atan2(z+e2s*b*s*s*s, p-e.es*e.a*c*c*c)
	return math.Atan2(y, x), phi
}
