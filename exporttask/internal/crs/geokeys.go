package crs

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// FromGeoKeys returns the CRS a GeoTIFF's GeoKeys give: the EPSG code of
// ProjectedCRSGeoKey for a projected model, of GeodeticCRSGeoKey
// (GeographicTypeGeoKey) for a geographic one, and EPSG:4326 for a
// user-defined geographic CRS on the WGS 84 datum or ellipsoid in degrees
// (see geotiff.Geo.IsWGS84). A ProjLinearUnitsGeoKey that contradicts the
// EPSG definition's unit, a user-defined CRS (no EPSG code), a geocentric
// model, a file without GeoKeys and a code [FromEPSG] does not know are
// *UnsupportedError values naming the CRS as GDAL would (its code, or its
// citation).
func FromGeoKeys(g geotiff.Geo) (*CRS, error) {
	model := g.Code(geotiff.KeyModelType)
	if model == 0 {
		switch {
		case g.Code(geotiff.KeyProjectedCRS) != 0:
			model = geotiff.ModelTypeProjected
		case g.Code(geotiff.KeyGeodeticCRS) != 0:
			model = geotiff.ModelTypeGeographic
		}
	}
	switch model {
	case geotiff.ModelTypeProjected:
		code := g.Code(geotiff.KeyProjectedCRS)
		if code == 0 || code == geotiff.UserDefined {
			return nil, &UnsupportedError{Name: citation(g, geotiff.KeyProjectedCitation, geotiff.KeyCitation),
				Reason: "a user-defined projected CRS (no EPSG code)"}
		}
		c, err := FromEPSG(code)
		if err != nil {
			return nil, err
		}
		if u := g.Code(geotiff.KeyProjLinearUnits); u != 0 && u != geotiff.UserDefined && unitCode(c.unit) != u {
			return nil, &UnsupportedError{Code: code, Name: c.name,
				Reason: fmt.Sprintf("given with linear unit EPSG:%d (ProjLinearUnitsGeoKey) instead of its own EPSG:%d", u, unitCode(c.unit))}
		}
		return c, nil
	case geotiff.ModelTypeGeographic:
		if g.IsWGS84() {
			return FromEPSG(4326)
		}
		code := g.Code(geotiff.KeyGeodeticCRS)
		if code == 0 || code == geotiff.UserDefined {
			return nil, &UnsupportedError{Name: citation(g, geotiff.KeyGeodeticCitation, geotiff.KeyCitation),
				Reason: "a user-defined geographic CRS (no EPSG code) not on WGS 84"}
		}
		if u := g.Code(geotiff.KeyGeogAngularUnits); u != 0 && u != 9102 {
			return nil, &UnsupportedError{Code: code, Reason: fmt.Sprintf("given in angular unit EPSG:%d, not degrees", u)}
		}
		return FromEPSG(code)
	case geotiff.ModelTypeGeocentric:
		return nil, &UnsupportedError{Name: citation(g, geotiff.KeyCitation), Reason: "geocentric"}
	case 0:
		return nil, &UnsupportedError{Reason: "missing (the file has no GeoKeys)"}
	}
	return nil, &UnsupportedError{Reason: fmt.Sprintf("of unknown model type %d", model)}
}

// citation returns the first non-empty citation among keys.
func citation(g geotiff.Geo, keys ...int) string {
	for _, k := range keys {
		if t := g.Keys[k].Text; t != "" {
			return t
		}
	}
	return ""
}

// unitCode returns the EPSG code of a linear unit of m metres.
func unitCode(m float64) int {
	if m == usSurveyFoot {
		return 9003
	}
	return 9001
}
