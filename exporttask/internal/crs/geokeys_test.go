package crs_test

import (
	"errors"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// keys builds GeoKeys from id → code pairs and id → text pairs.
func keys(codes map[int]int, texts map[int]string) geotiff.Geo {
	g := geotiff.Geo{Keys: map[int]geotiff.GeoKey{}}
	for k, v := range codes {
		g.Keys[k] = geotiff.GeoKey{Code: v}
	}
	for k, v := range texts {
		g.Keys[k] = geotiff.GeoKey{Text: v}
	}
	return g
}

func TestFromGeoKeys(t *testing.T) {
	const (
		model, proj, geog, units = geotiff.KeyModelType, geotiff.KeyProjectedCRS, geotiff.KeyGeodeticCRS, geotiff.KeyProjLinearUnits
		projected, geographic    = geotiff.ModelTypeProjected, geotiff.ModelTypeGeographic
	)
	ok := []struct {
		name  string
		g     geotiff.Geo
		code  int
		lonLa bool
	}{
		{"utm", keys(map[int]int{model: projected, proj: 32636, units: 9001}, nil), 32636, false},
		{"utm south without units", keys(map[int]int{model: projected, proj: 32736}, nil), 32736, false},
		{"ftUS", keys(map[int]int{model: projected, proj: 2227, units: 9003}, nil), 2227, false},
		{"no model type, projected code", keys(map[int]int{proj: 3857}, nil), 3857, false},
		{"wgs 84", keys(map[int]int{model: geographic, geog: 4326}, nil), 4326, true},
		{"user-defined on the WGS 84 datum", keys(map[int]int{model: geographic, geog: geotiff.UserDefined, geotiff.KeyGeodeticDatum: 6326}, nil), 4326, true},
		{"etrs89", keys(map[int]int{model: geographic, geog: 4258}, nil), 4258, false},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			got, err := crs.FromGeoKeys(c.g)
			if err != nil {
				t.Fatal(err)
			}
			if got.EPSG() != c.code || got.IsLonLatWGS84() != c.lonLa {
				t.Errorf("got %s (lon/lat WGS 84 %v), want EPSG:%d (%v)", got, got.IsLonLatWGS84(), c.code, c.lonLa)
			}
		})
	}
	bad := []struct {
		name string
		g    geotiff.Geo
		want string
	}{
		{"unknown code", keys(map[int]int{model: projected, proj: 3035}, map[int]string{geotiff.KeyCitation: "ETRS89-extended / LAEA Europe"}),
			"the CRS EPSG:3035 (ETRS89-extended / LAEA Europe) is not one this engine can transform"},
		{"user-defined projected", keys(map[int]int{model: projected, proj: geotiff.UserDefined}, map[int]string{geotiff.KeyCitation: "My Grid"}),
			`the CRS "My Grid" is a user-defined projected CRS (no EPSG code), which this engine cannot transform`},
		{"units contradict", keys(map[int]int{model: projected, proj: 32636, units: 9003}, nil),
			"the CRS EPSG:32636 (WGS 84 / UTM zone 36N) is given with linear unit EPSG:9003 (ProjLinearUnitsGeoKey) instead of its own EPSG:9001, which this engine cannot transform"},
		{"user-defined geographic", keys(map[int]int{model: geographic, geog: geotiff.UserDefined, geotiff.KeyGeodeticDatum: 6230}, map[int]string{geotiff.KeyGeodeticCitation: "ED50-like"}),
			`the CRS "ED50-like" is a user-defined geographic CRS (no EPSG code) not on WGS 84, which this engine cannot transform`},
		{"geocentric", keys(map[int]int{model: geotiff.ModelTypeGeocentric}, nil), "the CRS of the file is geocentric, which this engine cannot transform"},
		{"none", keys(nil, nil), "the CRS of the file is missing (the file has no GeoKeys), which this engine cannot transform"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			got, err := crs.FromGeoKeys(c.g)
			if err == nil {
				t.Fatalf("got %s, want an error", got)
			}
			var ue *crs.UnsupportedError
			if !errors.As(err, &ue) || !errors.Is(err, crs.ErrUnsupported) {
				t.Errorf("%v is not an *UnsupportedError", err)
			}
			if err.Error() != c.want {
				t.Errorf("got  %q\nwant %q", err, c.want)
			}
		})
	}
}
