package simulate

import "github.com/openapi-viewer/viewer/exporttask"

// box is a closed ring around a lon/lat rectangle.
func box(lon0, lat0, lon1, lat1 float64) []exporttask.Position {
	return []exporttask.Position{{lon0, lat0}, {lon1, lat0}, {lon1, lat1}, {lon0, lat1}, {lon0, lat0}}
}

// polygonROI is a region of interest of one polygon feature.
func polygonROI(rings ...[]exporttask.Position) *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: "FeatureCollection", Features: []exporttask.Feature{{
		Type: "Feature", Geometry: exporttask.NewPolygon(rings...),
	}}}
}
