package exportio

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
	out := make(geom.MultiPolygon, 0, len(polys))
	for _, p := range polys {
		poly := make(geom.Polygon, 0, len(p))
		for _, r := range p {
			ring := make(geom.Ring, len(r))
			for i, pos := range r {
				if len(pos) < 2 {
					return nil, errors.New("position with fewer than 2 coordinates")
				}
				ring[i] = geom.Point{X: pos[0], Y: pos[1]}
			}
			poly = append(poly, ring)
		}
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
