package crs

import (
	"errors"
	"fmt"
	"slices"
)

// ErrUnsupported is the error (wrapped in an *UnsupportedError) for a CRS
// the package cannot transform.
var ErrUnsupported = errors.New("crs: CRS not supported")

// UnsupportedError says which CRS is not supported.
type UnsupportedError struct {
	// Code is the EPSG code, 0 for a user-defined CRS.
	Code int
	// Name describes the CRS as GDAL would name it, "" when unknown.
	Name string
	// Reason says why, e.g. "user-defined (no EPSG code)".
	Reason string
}

func (e *UnsupportedError) Error() string {
	s := "the CRS "
	switch {
	case e.Code != 0 && e.Name != "":
		s += fmt.Sprintf("EPSG:%d (%s)", e.Code, e.Name)
	case e.Code != 0:
		s += fmt.Sprintf("EPSG:%d", e.Code)
	case e.Name != "":
		s += fmt.Sprintf("%q", e.Name)
	default:
		s += "of the file"
	}
	if e.Reason != "" {
		s += " is " + e.Reason
	}
	return s + ", which this engine cannot transform"
}

// Unwrap returns ErrUnsupported.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

// Linear units, metres per unit (EPSG 9001, 9003).
const (
	metre          = 1.0
	usSurveyFoot   = 1200.0 / 3937.0
	utmScale       = 0.9996
	utmFalseEast   = 500000.0
	utmFalseNorthS = 10000000.0
)

// Datum shifts PROJ uses from these datums to WGS 84 (see the package
// documentation).
const (
	nullETRS89   = "ETRS89 to WGS 84 (1): null transformation (EPSG:1149)"
	nullSIRGAS   = "SIRGAS 2000 to WGS 84 (1): null transformation (EPSG:15894)"
	nullNZGD2000 = "NZGD2000 to WGS 84 (1): null transformation (EPSG:1565)"
	nullRGF93    = "RGF93 v1 to WGS 84 (1): null transformation (EPSG:1671)"
	noShift      = "none (WGS 84)"
)

// FromEPSG returns the CRS of an EPSG code the package supports: see the
// package documentation for the list. Any other code is an
// *UnsupportedError.
func FromEPSG(code int) (*CRS, error) {
	switch {
	case code == 4326:
		return &CRS{code: code, name: "WGS 84", method: methodGeographic, unit: 1, toWGS84: noShift}, nil
	case code == 4258:
		return &CRS{code: code, name: "ETRS89", method: methodGeographic, unit: 1, toWGS84: nullETRS89}, nil
	case code == 4269:
		return (&CRS{code: code, name: "NAD83", method: methodGeographic, unit: 1}).withShifts(nad83Shifts(), nad83Desc), nil
	case code == 4267:
		return (&CRS{code: code, name: "NAD27", method: methodGeographic, unit: 1}).withShifts(nad27Shifts(), nad27Desc), nil
	case code == 4674:
		return &CRS{code: code, name: "SIRGAS 2000", method: methodGeographic, unit: 1, toWGS84: nullSIRGAS}, nil
	case code == 4167:
		return &CRS{code: code, name: "NZGD2000", method: methodGeographic, unit: 1, toWGS84: nullNZGD2000}, nil
	case code == 4171:
		return &CRS{code: code, name: "RGF93 v1", method: methodGeographic, unit: 1, toWGS84: nullRGF93}, nil
	case code == 3857:
		return &CRS{code: code, name: "WGS 84 / Pseudo-Mercator", method: methodWebMercator,
			a: wgs84Ellipsoid.a, unit: metre, toWGS84: noShift}, nil
	case code >= 32601 && code <= 32660:
		return utm(code, "WGS 84", wgs84Ellipsoid, code-32600, false, noShift), nil
	case code >= 32701 && code <= 32760:
		return utm(code, "WGS 84", wgs84Ellipsoid, code-32700, true, noShift), nil
	case code >= 25828 && code <= 25838:
		return utm(code, "ETRS89", grs80Ellipsoid, code-25800, false, nullETRS89), nil
	case code >= 26903 && code <= 26923:
		return utm(code, "NAD83", grs80Ellipsoid, code-26900, false, "").withShifts(nad83Shifts(), nad83Desc), nil
	case code >= 26708 && code <= 26720:
		return utm(code, "NAD27", clarke1866, code-26700, false, "").withShifts(nad27Shifts(), nad27Desc), nil
	case code >= 31965 && code <= 31976:
		return utm(code, "SIRGAS 2000", grs80Ellipsoid, code-31965+11, false, nullSIRGAS), nil
	case code >= 31977 && code <= 31985:
		return utm(code, "SIRGAS 2000", grs80Ellipsoid, code-31977+17, true, nullSIRGAS), nil
	case code == 2039:
		c := transverseMercator(code, "Israel 1993 / Israeli TM Grid", grs80Ellipsoid,
			dms(31, 44, 3.817), dms(35, 12, 16.261), 1.0000067, 219529.584, 626907.39, metre)
		return c.withShifts([]areaShift{{shift: newShift(grs80Ellipsoid, 23.772, 17.49, 17.859, 0.3132, 1.85274, -1.67299, -5.4262, true),
			everywhere: true, accuracy: 0.5, name: "Israel 1993 to WGS 84 (2)"}},
			"Israel 1993 to WGS 84 (2): coordinate frame Helmert (EPSG:9607) tx 23.772 ty 17.49 tz 17.859 m, rx 0.3132 ry 1.85274 rz -1.67299″, ds -5.4262 ppm"), nil
	case code == 2193:
		return transverseMercator(code, "NZGD2000 / New Zealand Transverse Mercator 2000", grs80Ellipsoid,
			0, 173, 0.9996, 1600000, 10000000, metre).withShift(nullNZGD2000), nil
	case code == 2154:
		return lambert(code, "RGF93 v1 / Lambert-93", grs80Ellipsoid, 46.5, 3, 49, 44, 1, 700000, 6600000, metre).withShift(nullRGF93), nil
	case code == 26943:
		return lambert(code, "NAD83 / California zone 3", grs80Ellipsoid,
			36.5, -120.5, dms(38, 26, 0), dms(37, 4, 0), 1, 2000000, 500000, metre).withShifts(nad83Shifts(), nad83Desc), nil
	case code == 2227:
		return lambert(code, "NAD83 / California zone 3 (ftUS)", grs80Ellipsoid,
			36.5, -120.5, dms(38, 26, 0), dms(37, 4, 0), 1, 6561666.667, 1640416.667, usSurveyFoot).withShifts(nad83Shifts(), nad83Desc), nil
	case code == 24200:
		c := lambert(code, "JAD69 / Jamaica National Grid", clarke1866, 18, -77, 18, 18, 1, 250000, 150000, metre)
		return c.withShifts([]areaShift{{shift: newShift(clarke1866, -33.722, 153.789, 94.959, 8.581, 4.478, -4.54, 8.95, true),
			everywhere: true, accuracy: 1, name: "JAD69 to WGS 84 (3)"}},
			"JAD69 to WGS 84 (3): coordinate frame Helmert (EPSG:9607) tx -33.722 ty 153.789 tz 94.959 m, rx 8.581 ry 4.478 rz -4.54″, ds 8.95 ppm"), nil
	}
	return nil, &UnsupportedError{Code: code}
}

// withShift sets the description of the datum shift.
func (c *CRS) withShift(desc string) *CRS {
	c.toWGS84 = desc
	return c
}

// dms returns degrees, minutes and seconds as decimal degrees.
func dms(d, m, s float64) float64 { return d + m/60 + s/3600 }

// utm returns the UTM zone's CRS on datum (named) with ellipsoid el.
func utm(code int, datum string, el ellipsoid, zone int, south bool, shiftDesc string) *CRS {
	hemi, fn := "N", 0.0
	if south {
		hemi, fn = "S", utmFalseNorthS
	}
	name := fmt.Sprintf("%s / UTM zone %d%s", datum, zone, hemi)
	return transverseMercator(code, name, el, 0, float64(zone)*6-183, utmScale, utmFalseEast, fn, metre).withShift(shiftDesc)
}

// transverseMercator returns a Transverse Mercator CRS: latitude and
// longitude of the natural origin in degrees, scale factor, false easting
// and northing in the CRS's unit, and the unit in metres.
func transverseMercator(code int, name string, el ellipsoid, lat0, lon0, k0, fe, fn, unit float64) *CRS {
	return &CRS{code: code, name: name, method: methodTM, lon0: lon0 * deg,
		fe: fe * unit, fn: fn * unit, unit: unit, tm: newTmerc(el, lat0*deg, k0)}
}

// lambert returns a Lambert Conformal Conic CRS: latitude of the origin,
// central meridian and standard parallels in degrees (lat1 = lat2 = lat0
// for one standard parallel, EPSG 9801), scale factor, false easting and
// northing in the CRS's unit, and the unit in metres.
func lambert(code int, name string, el ellipsoid, lat0, lon0, lat1, lat2, k0, fe, fn, unit float64) *CRS {
	return &CRS{code: code, name: name, method: methodLCC, lon0: lon0 * deg,
		fe: fe * unit, fn: fn * unit, unit: unit, lcc: newLCC(el, lat0*deg, lat1*deg, lat2*deg, k0)}
}

// Codes returns the EPSG codes [FromEPSG] supports, in ascending order.
func Codes() []int {
	var codes []int
	add := func(lo, hi int) {
		for c := lo; c <= hi; c++ {
			codes = append(codes, c)
		}
	}
	for _, c := range []int{2039, 2154, 2193, 2227, 3857, 4167, 4171, 4258, 4267, 4269, 4326, 4674, 24200} {
		add(c, c)
	}
	add(25828, 25838)
	add(26708, 26720)
	add(26903, 26923)
	add(26943, 26943)
	add(31965, 31985)
	add(32601, 32660)
	add(32701, 32760)
	slices.Sort(codes)
	return codes
}
