package crs

import "math"

// tmOrder is the order of the series of the extended Transverse Mercator.
const tmOrder = 6

// tmerc holds the constants of the Transverse Mercator projection by the
// extended Krüger series of Poder and Engsager (6th order in the third
// flattening n), the algorithm PROJ uses by default for `+proj=tmerc`
// and `+proj=utm`. Coordinates are metres from the natural origin, before
// false easting and northing.
type tmerc struct {
	cgb, cbg [tmOrder]float64 // Gaussian → geodetic and geodetic → Gaussian latitude
	utg, gtu [tmOrder]float64 // ellipsoidal ↔ spherical normalised N, E
	qn       float64          // meridian quadrant scaled by k0·a, per radian
	zb       float64          // northing of the origin latitude, negated
}

// maxTMEasting is the largest normalised easting the series is used for
// (150° from the central meridian on the sphere, PROJ's limit).
const maxTMEasting = 2.623395162778

// newTmerc returns the projection for ellipsoid el, latitude of origin
// phi0 (radians) and scale factor k0.
func newTmerc(el ellipsoid, phi0, k0 float64) tmerc {
	var t tmerc
	f := el.es / (1 + math.Sqrt(1-el.es))
	n := f / (2 - f)
	np := n
	t.cgb[0] = n * (2 + n*(-2/3.0+n*(-2+n*(116/45.0+n*(26/45.0+n*(-2854/675.0))))))
	t.cbg[0] = n * (-2 + n*(2/3.0+n*(4/3.0+n*(-82/45.0+n*(32/45.0+n*(4642/4725.0))))))
	np *= n
	t.cgb[1] = np * (7/3.0 + n*(-8/5.0+n*(-227/45.0+n*(2704/315.0+n*(2323/945.0)))))
	t.cbg[1] = np * (5/3.0 + n*(-16/15.0+n*(-13/9.0+n*(904/315.0+n*(-1522/945.0)))))
	np *= n
	t.cgb[2] = np * (56/15.0 + n*(-136/35.0+n*(-1262/105.0+n*(73814/2835.0))))
	t.cbg[2] = np * (-26/15.0 + n*(34/21.0+n*(8/5.0+n*(-12686/2835.0))))
	np *= n
	t.cgb[3] = np * (4279/630.0 + n*(-332/35.0+n*(-399572/14175.0)))
	t.cbg[3] = np * (1237/630.0 + n*(-12/5.0+n*(-24832/14175.0)))
	np *= n
	t.cgb[4] = np * (4174/315.0 + n*(-144838/6237.0))
	t.cbg[4] = np * (-734/315.0 + n*(109598/31185.0))
	np *= n
	t.cgb[5] = np * (601676 / 22275.0)
	t.cbg[5] = np * (444337 / 155925.0)

	np = n * n
	t.qn = el.a * k0 / (1 + n) * (1 + np*(1/4.0+np*(1/64.0+np/256.0)))
	t.utg[0] = n * (-0.5 + n*(2/3.0+n*(-37/96.0+n*(1/360.0+n*(81/512.0+n*(-96199/604800.0))))))
	t.gtu[0] = n * (0.5 + n*(-2/3.0+n*(5/16.0+n*(41/180.0+n*(-127/288.0+n*(7891/37800.0))))))
	t.utg[1] = np * (-1/48.0 + n*(-1/15.0+n*(437/1440.0+n*(-46/105.0+n*(1118711/3870720.0)))))
	t.gtu[1] = np * (13/48.0 + n*(-3/5.0+n*(557/1440.0+n*(281/630.0+n*(-1983433/1935360.0)))))
	np *= n
	t.utg[2] = np * (-17/480.0 + n*(37/840.0+n*(209/4480.0+n*(-5569/90720.0))))
	t.gtu[2] = np * (61/240.0 + n*(-103/140.0+n*(15061/26880.0+n*(167603/181440.0))))
	np *= n
	t.utg[3] = np * (-4397/161280.0 + n*(11/504.0+n*(830251/7257600.0)))
	t.gtu[3] = np * (49561/161280.0 + n*(-179/168.0+n*(6601661/7257600.0)))
	np *= n
	t.utg[4] = np * (-4583/161280.0 + n*(108847/3991680.0))
	t.gtu[4] = np * (34729/80640.0 + n*(-3418889/1995840.0))
	np *= n
	t.utg[5] = np * (-20648693 / 638668800.0)
	t.gtu[5] = np * (212378941 / 319334400.0)

	z := gaussLat(&t.cbg, phi0)
	t.zb = -t.qn * (z + clenshawSin(&t.gtu, 2*z))
	return t
}

// gaussLat evaluates phi + Σ c[k]·sin(2(k+1)·phi) by Clenshaw summation:
// the conversion between geodetic and Gaussian (conformal) latitude.
func gaussLat(c *[tmOrder]float64, phi float64) float64 {
	sin2, cos2 := math.Sincos(2 * phi)
	twoCos := 2 * cos2
	var h, h1, h2 float64
	for k := tmOrder - 1; k >= 0; k-- {
		h = twoCos*h1 - h2 + c[k]
		h2, h1 = h1, h
	}
	return phi + h*sin2
}

// clenshawSin evaluates Σ c[k]·sin((k+1)·arg) by Clenshaw summation.
func clenshawSin(c *[tmOrder]float64, arg float64) float64 {
	s, co := math.Sincos(arg)
	r := 2 * co
	var h, h1, h2 float64
	for k := tmOrder - 1; k >= 0; k-- {
		h = r*h1 - h2 + c[k]
		h2, h1 = h1, h
	}
	return s * h
}

// clenshawSinC evaluates the complex sum Σ c[k]·sin((k+1)·(ar + i·ai)) by
// Clenshaw summation and returns its real and imaginary parts.
func clenshawSinC(c *[tmOrder]float64, ar, ai float64) (re, im float64) {
	sr, cr := math.Sincos(ar)
	shi, chi := math.Sinh(ai), math.Cosh(ai)
	r, i := 2*cr*chi, -2*sr*shi
	var hr, hi, hr1, hi1, hr2, hi2 float64
	for k := tmOrder - 1; k >= 0; k-- {
		hr2, hi2 = hr1, hi1
		hr1, hi1 = hr, hi
		hr = -hr2 + r*hr1 - i*hi1 + c[k]
		hi = -hi2 + i*hr1 + r*hi1
	}
	r, i = sr*chi, cr*shi
	return r*hr - i*hi, r*hi + i*hr
}

// forward projects lon lam (radians from the central meridian) and lat
// phi to easting and northing in metres from the natural origin; ok is
// false beyond the series' domain.
func (t *tmerc) forward(lam, phi float64) (x, y float64, ok bool) {
	cn := gaussLat(&t.cbg, phi)
	sinCn, cosCn := math.Sincos(cn)
	sinCe, cosCe := math.Sincos(lam)
	cn = math.Atan2(sinCn, cosCe*cosCn)
	ce := math.Atan2(sinCe*cosCn, math.Hypot(sinCn, cosCn*cosCe))
	ce = math.Asinh(math.Tan(ce))
	dn, de := clenshawSinC(&t.gtu, 2*cn, 2*ce)
	cn += dn
	ce += de
	if !(math.Abs(ce) <= maxTMEasting) {
		return math.NaN(), math.NaN(), false
	}
	return t.qn * ce, t.qn*cn + t.zb, true
}

// inverse is the inverse of forward.
func (t *tmerc) inverse(x, y float64) (lam, phi float64, ok bool) {
	cn := (y - t.zb) / t.qn
	ce := x / t.qn
	if !(math.Abs(ce) <= maxTMEasting) {
		return math.NaN(), math.NaN(), false
	}
	dn, de := clenshawSinC(&t.utg, 2*cn, 2*ce)
	cn += dn
	ce += de
	ce = math.Atan(math.Sinh(ce))
	sinCn, cosCn := math.Sincos(cn)
	sinCe, cosCe := math.Sincos(ce)
	ce = math.Atan2(sinCe, cosCe*cosCn)
	cn = math.Atan2(sinCn*cosCe, math.Hypot(sinCe, cosCe*cosCn))
	return ce, gaussLat(&t.cgb, cn), true
}
