package raster

import (
	"encoding/json"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// Metadata is the METADATA artifact of a RASTER export (metadata.json).
type Metadata struct {
	RecordID string            `json:"recordID"`
	Domain   exporttask.Domain `json:"domain"`
	Title    string            `json:"title,omitempty"`
	// ROI is the area exported: the request's region of interest, or the
	// record's footprint when the request had none. The GeoPackage holds
	// the tiles meeting it and the record's footprint.
	ROI *exporttask.FeatureCollection `json:"ROI"`
	// BBox is the exported extent, [west, south, east north] in degrees:
	// the ROI's box intersected with the footprint's, as in the
	// GeoPackage's gpkg_contents.
	BBox [4]float64 `json:"bbox"`
	CRS  string     `json:"crs"` // always "EPSG:4326"
	// MinZoom and MaxZoom are the levels exported.
	MinZoom int `json:"minZoom"`
	MaxZoom int `json:"maxZoom"`
	// Levels gives each level's tile count and pixel size.
	Levels []LevelMetadata `json:"levels"`
	// Tiles and TileBytes are the totals of the levels.
	Tiles     int64 `json:"tiles"`
	TileBytes int64 `json:"tileBytes"`
	// Artifacts are the export's other files, with size and SHA-256.
	Artifacts []exporttask.Artifact `json:"artifacts"`
}

// LevelMetadata describes one exported level.
type LevelMetadata struct {
	Zoom         int     `json:"zoom"`
	Tiles        int64   `json:"tiles"`
	Bytes        int64   `json:"bytes"`
	PixelSizeDeg float64 `json:"pixelSizeDeg"`
}

// metadataJSON builds the METADATA artifact.
func metadataJSON(j export.Job, sel selection, minZoom, maxZoom int, arts []exporttask.Artifact) ([]byte, error) {
	roi := j.Request.ROI
	if roi == nil {
		roi = &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{
			{Type: exporttask.TypeFeature, Properties: map[string]any{"source": "footprint"}, Geometry: j.Record.Footprint}}}
	}
	m := Metadata{
		RecordID: j.Record.ID, Domain: j.Record.Domain, Title: j.Record.Title, ROI: roi,
		BBox: [4]float64{j.Box.West, j.Box.South, j.Box.East, j.Box.North}, CRS: "EPSG:4326",
		MinZoom: minZoom, MaxZoom: maxZoom, Tiles: sel.Tiles(), TileBytes: sel.Bytes(), Artifacts: arts,
	}
	for _, l := range sel.Levels {
		m.Levels = append(m.Levels, LevelMetadata{Zoom: l.Zoom, Tiles: l.Tiles, Bytes: l.Bytes, PixelSizeDeg: pixelDegrees(l.Zoom)})
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
