package crs

import "math"

// lcc holds the constants of the ellipsoidal Lambert Conformal Conic
// projection (EPSG methods 9801, one standard parallel, and 9802, two), in
// the form PROJ's `+proj=lcc` uses. Coordinates are metres from the
// false origin, before false easting and northing.
type lcc struct {
	e, n, c, rho0, k0 float64
}

// newLCC returns the projection for ellipsoid el, latitude of origin phi0
// and standard parallels phi1 and phi2 (radians; phi2 = phi1 for one
// standard parallel), and scale factor k0 (1 with two parallels).
func newLCC(el ellipsoid, phi0, phi1, phi2, k0 float64) lcc {
	e := el.e()
	sin1, cos1 := math.Sincos(phi1)
	n := sin1
	m1 := msfn(sin1, cos1, el.es)
	t1 := tsfn(phi1, sin1, e)
	if math.Abs(phi1-phi2) >= 1e-10 {
		sin2, cos2 := math.Sincos(phi2)
		n = math.Log(m1/msfn(sin2, cos2, el.es)) / math.Log(t1/tsfn(phi2, sin2, e))
	}
	c := m1 * math.Pow(t1, -n) / n
	rho0 := 0.0
	if math.Abs(math.Abs(phi0)-math.Pi/2) >= 1e-10 {
		rho0 = c * math.Pow(tsfn(phi0, math.Sin(phi0), e), n)
	}
	return lcc{e: e, n: n, c: c * el.a, rho0: rho0 * el.a, k0: k0}
}

// msfn is m(φ) = cos φ / √(1 − e² sin² φ).
func msfn(sinPhi, cosPhi, es float64) float64 {
	return cosPhi / math.Sqrt(1-es*sinPhi*sinPhi)
}

// tsfn is t(φ) = tan(π/4 − φ/2) / ((1 − e sin φ)/(1 + e sin φ))^(e/2).
func tsfn(phi, sinPhi, e float64) float64 {
	es := e * sinPhi
	return math.Tan(math.Pi/4-phi/2) / math.Pow((1-es)/(1+es), e/2)
}

// phiOfT inverts tsfn by fixed-point iteration.
func phiOfT(ts, e float64) (float64, bool) {
	half := e / 2
	phi := math.Pi/2 - 2*math.Atan(ts)
	for range 30 {
		es := e * math.Sin(phi)
		next := math.Pi/2 - 2*math.Atan(ts*math.Pow((1-es)/(1+es), half))
		if math.Abs(next-phi) < 1e-14 {
			return next, true
		}
		phi = next
	}
	return phi, false
}

// forward projects lon lam (radians from the central meridian) and lat
// phi to metres from the false origin.
func (l *lcc) forward(lam, phi float64) (x, y float64, ok bool) {
	var rho float64
	if math.Abs(math.Abs(phi)-math.Pi/2) < 1e-10 {
		if phi*l.n <= 0 {
			return math.NaN(), math.NaN(), false
		}
	} else {
		rho = l.c * math.Pow(tsfn(phi, math.Sin(phi), l.e), l.n)
	}
	s, c := math.Sincos(lam * l.n)
	return l.k0 * rho * s, l.k0 * (l.rho0 - rho*c), true
}

// inverse is the inverse of forward.
func (l *lcc) inverse(x, y float64) (lam, phi float64, ok bool) {
	x /= l.k0
	y = l.rho0 - y/l.k0
	rho := math.Hypot(x, y)
	if rho == 0 {
		if l.n > 0 {
			return 0, math.Pi / 2, true
		}
		return 0, -math.Pi / 2, true
	}
	if l.n < 0 {
		rho, x, y = -rho, -x, -y
	}
	phi, ok = phiOfT(math.Pow(rho/l.c, 1/l.n), l.e)
	return math.Atan2(x, y) / l.n, phi, ok
}
