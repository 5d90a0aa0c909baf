package crs

import (
	"fmt"
	"math"
)

// method is the map projection of a CRS.
type method uint8

const (
	methodGeographic  method = iota // longitude, latitude in degrees
	methodTM                        // Transverse Mercator (EPSG 9807), UTM
	methodLCC                       // Lambert Conformal Conic (EPSG 9801, 9802)
	methodWebMercator               // Popular Visualisation Pseudo Mercator (EPSG 1024)
)

// deg is one degree in radians.
const deg = math.Pi / 180

// CRS is a coordinate reference system the package can transform to and
// from WGS 84 longitude/latitude. It is immutable and safe for concurrent
// use; the zero value is not valid (use [FromEPSG] or [FromGeoKeys]).
type CRS struct {
	code   int
	name   string
	method method
	lon0   float64 // central meridian, radians
	fe, fn float64 // false easting and northing, metres
	unit   float64 // metres per linear unit of the CRS
	tm     tmerc
	lcc    lcc
	a      float64 // sphere radius of Web Mercator, metres
	// shifts are the datum shifts to WGS 84 PROJ chooses from, by area,
	// in the order it lists them; none when the datum is WGS 84 or PROJ
	// uses a null transformation everywhere.
	shifts []areaShift
	// toWGS84 names the operation PROJ uses to reach WGS 84.
	toWGS84 string
}

// areaShift is a datum shift valid within a longitude/latitude box
// (degrees; east < west when it crosses the antimeridian), with its
// accuracy in metres, as PROJ selects among them. A nil shift is a null
// transformation.
type areaShift struct {
	*shift
	west, south, east, north float64
	accuracy                 float64
	offshore                 bool // the area's name says "- offshore"
	everywhere               bool // the only shift PROJ lists: used at every point
	name                     string
	// minX..maxY is the box as PROJ tests a projected CRS's coordinates
	// against it: the lon/lat box densified and projected (no shift).
	minX, minY, maxX, maxY float64
}

// containsXY reports whether the projected box holds x, y (always, for
// a shift used everywhere).
func (a *areaShift) containsXY(x, y float64) bool {
	return a.everywhere || x >= a.minX && x <= a.maxX && y >= a.minY && y <= a.maxY
}

// contains reports whether the box holds lon, lat.
func (a *areaShift) contains(lon, lat float64) bool {
	if a.everywhere {
		return true
	}
	if lat < a.south || lat > a.north {
		return false
	}
	if a.east < a.west {
		return lon >= a.west || lon <= a.east
	}
	return lon >= a.west && lon <= a.east
}

// EPSG returns the CRS's EPSG code.
func (c *CRS) EPSG() int { return c.code }

// Name returns the CRS's name as the EPSG registry gives it, e.g.
// "WGS 84 / UTM zone 36N".
func (c *CRS) Name() string { return c.name }

// String returns "EPSG:code (name)".
func (c *CRS) String() string { return fmt.Sprintf("EPSG:%d (%s)", c.code, c.name) }

// IsLonLatWGS84 reports whether the CRS is EPSG:4326: its coordinates are
// already WGS 84 longitude and latitude and ToLonLat is the identity.
func (c *CRS) IsLonLatWGS84() bool { return c.code == 4326 }

// IsGeographic reports whether the CRS's coordinates are longitude and
// latitude in degrees (on its own datum).
func (c *CRS) IsGeographic() bool { return c.method == methodGeographic }

// DatumShift describes the operation from the CRS's datum to WGS 84, the
// one PROJ (`projinfo -s EPSG:code -t EPSG:4326`, without grids) uses.
func (c *CRS) DatumShift() string { return c.toWGS84 }

// ToLonLat transforms CRS coordinates (x, y: easting and northing in the
// CRS's unit, or longitude and latitude in degrees for a geographic CRS)
// to WGS 84 longitude and latitude in degrees (longitude within ±180).
// ok is false where the projection is not defined (NaN input, or beyond
// the domain PROJ would refuse). It does not allocate.
func (c *CRS) ToLonLat(x, y float64) (lon, lat float64, ok bool) {
	var lam, phi float64
	switch c.method {
	case methodGeographic:
		if !(math.Abs(y) <= 90) || math.IsNaN(x) || math.IsInf(x, 0) {
			return math.NaN(), math.NaN(), false
		}
		if len(c.shifts) == 0 {
			return x, y, true
		}
		lam, phi, ok = x*deg, y*deg, true
	case methodTM:
		lam, phi, ok = c.tm.inverse(x*c.unit-c.fe, y*c.unit-c.fn)
		lam += c.lon0
	case methodLCC:
		lam, phi, ok = c.lcc.inverse(x*c.unit-c.fe, y*c.unit-c.fn)
		lam += c.lon0
	case methodWebMercator:
		xm, ym := x*c.unit-c.fe, y*c.unit-c.fn
		lam, phi = xm/c.a+c.lon0, math.Atan(math.Sinh(ym/c.a))
		ok = !math.IsNaN(lam) && !math.IsNaN(phi) && !math.IsInf(xm, 0)
	}
	if !ok {
		return math.NaN(), math.NaN(), false
	}
	if len(c.shifts) != 0 {
		var s *shift
		if c.method == methodGeographic {
			s = c.pick(adjlon(lam)/deg, phi/deg)
		} else {
			s = c.pickXY(x, y)
		}
		if s != nil {
			lam, phi = s.toWGS84(lam, phi)
		}
	}
	return adjlon(lam) / deg, phi / deg, true
}

// FromLonLat transforms WGS 84 longitude and latitude in degrees to CRS
// coordinates, the inverse of [CRS.ToLonLat]. ok is false where the
// projection is not defined. It does not allocate.
func (c *CRS) FromLonLat(lon, lat float64) (x, y float64, ok bool) {
	if !(math.Abs(lat) <= 90) || math.IsNaN(lon) || math.IsInf(lon, 0) {
		return math.NaN(), math.NaN(), false
	}
	if c.method == methodGeographic && len(c.shifts) == 0 {
		return lon, lat, true
	}
	lam, phi := lon*deg, lat*deg
	if len(c.shifts) != 0 {
		if s := c.pick(lon, lat); s != nil {
			lam, phi = s.fromWGS84(lam, phi)
		}
	}
	return c.project(lam, phi)
}

// project projects lon lam, lat phi (radians, on the CRS's datum) to CRS
// coordinates.
func (c *CRS) project(lam, phi float64) (x, y float64, ok bool) {
	var xm, ym float64
	switch c.method {
	case methodGeographic:
		return adjlon(lam) / deg, phi / deg, true
	case methodTM:
		xm, ym, ok = c.tm.forward(adjlon(lam-c.lon0), phi)
	case methodLCC:
		xm, ym, ok = c.lcc.forward(adjlon(lam-c.lon0), phi)
	case methodWebMercator:
		if math.Abs(math.Abs(phi)-math.Pi/2) <= 1e-10 {
			return math.NaN(), math.NaN(), false
		}
		xm, ym, ok = c.a*adjlon(lam-c.lon0), c.a*math.Asinh(math.Tan(phi)), true
	}
	if !ok {
		return math.NaN(), math.NaN(), false
	}
	return (xm + c.fe) / c.unit, (ym + c.fn) / c.unit, true
}

// ToLonLatSlice transforms the points (xs[i], ys[i]) in place to WGS 84
// longitude (in xs) and latitude (in ys), as [CRS.ToLonLat] does; a point
// that cannot be transformed becomes NaN, NaN. It returns the number of
// such points. xs and ys must have the same length.
func (c *CRS) ToLonLatSlice(xs, ys []float64) (failed int) {
	ys = ys[:len(xs)]
	for i := range xs {
		var ok bool
		if xs[i], ys[i], ok = c.ToLonLat(xs[i], ys[i]); !ok {
			failed++
		}
	}
	return failed
}

// FromLonLatSlice transforms WGS 84 longitudes (in xs) and latitudes (in
// ys) in place to CRS coordinates, as [CRS.FromLonLat] does; a point that
// cannot be transformed becomes NaN, NaN. It returns the number of such
// points. xs and ys must have the same length.
func (c *CRS) FromLonLatSlice(xs, ys []float64) (failed int) {
	ys = ys[:len(xs)]
	for i := range xs {
		var ok bool
		if xs[i], ys[i], ok = c.FromLonLat(xs[i], ys[i]); !ok {
			failed++
		}
	}
	return failed
}

// pick returns the datum shift PROJ 9.1's proj_trans uses at lon, lat
// (degrees): among the shifts whose box holds the point, the first of the
// most accurate ones, an offshore one only when it is the first found.
// Where none holds the point, PROJ uses its ballpark transformation, the
// null transformation here. nil is the null transformation.
func (c *CRS) pick(lon, lat float64) *shift {
	best := -1
	for i := range c.shifts {
		s := &c.shifts[i]
		if !s.contains(lon, lat) {
			continue
		}
		if best < 0 || (s.accuracy < c.shifts[best].accuracy && !s.offshore) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return c.shifts[best].shift
}

// pickXY is pick for the projected coordinates of a projected CRS, tested
// against the projected boxes of the shifts' areas, as PROJ does when the
// source CRS is projected.
func (c *CRS) pickXY(x, y float64) *shift {
	best := -1
	for i := range c.shifts {
		s := &c.shifts[i]
		if !s.containsXY(x, y) {
			continue
		}
		if best < 0 || (s.accuracy < c.shifts[best].accuracy && !s.offshore) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return c.shifts[best].shift
}

// adjlon returns lam reduced to [-π, π].
func adjlon(lam float64) float64 {
	if math.Abs(lam) <= math.Pi {
		return lam
	}
	lam = math.Remainder(lam, 2*math.Pi)
	return lam
}
