package export

import (
	"errors"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// FromGeometry converts a GeoJSON Polygon or MultiPolygon to the planar
// geometry the exporters test points and boxes against. A nil geometry or
// one of another type is an error.
func FromGeometry(g *exporttask.Geometry) (geom.MultiPolygon, error) {
	if g == nil {
		return nil, errors.New("no geometry")
	}
	polys := g.Polygons()
	if polys == nil {
		return nil, errors.New("geometry is not a Polygon or MultiPolygon")
	}
	n := 0
	for _, p := range polys {
		for _, r := range p {
			for _, pos := range r {
				if len(pos) < 2 {
					return nil, errors.New("position with fewer than 2 coordinates")
				}
			}
			n += len(r)
		}
	}
	out := make(geom.MultiPolygon, 0, len(polys))
	pts := make([]geom.Point, 0, n)
	for _, p := range polys {
		var poly geom.Polygon
		pts, poly = geom.AppendRings(pts, make(geom.Polygon, 0, len(p)), p)
		out = append(out, poly)
	}
	return out, nil
}

// FromROI converts a region of interest: the union of its features'
// geometries. A nil collection gives nil, which callers read as "the whole
// record".
func FromROI(fc *exporttask.FeatureCollection) (geom.MultiPolygon, error) {
	if fc == nil {
		return nil, nil
	}
	var out geom.MultiPolygon
	for _, f := range fc.Features {
		m, err := FromGeometry(f.Geometry)
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	return out, nil
}
