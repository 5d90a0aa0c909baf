package exporttask

// FeatureCollection is a GeoJSON FeatureCollection (RFC 7946, section 3.3):
// the region of interest of a task.
type FeatureCollection struct {
	Type     string    `json:"type"` // always "FeatureCollection"
	Features []Feature `json:"features"`
}

// Feature is a GeoJSON Feature whose geometry is a Polygon or MultiPolygon.
type Feature struct {
	Type       string         `json:"type"` // always "Feature"
	Properties map[string]any `json:"properties"`
	Geometry   *Geometry      `json:"geometry"`
}

// Position is a GeoJSON position: longitude, latitude and an optional
// altitude, in degrees (WGS 84) and meters.
type Position []float64

// Geometry is a GeoJSON Polygon or MultiPolygon. Coordinates holds the
// Polygon's rings ([][]Position) or the MultiPolygon's polygons
// ([][][]Position), according to Type.
type Geometry struct {
	Type        string `json:"type"` // "Polygon" or "MultiPolygon"
	Coordinates any    `json:"coordinates"`
}
