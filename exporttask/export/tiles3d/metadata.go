package tiles3d

import (
	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
)

// Metadata is the content of the METADATA artifact.
type Metadata struct {
	Record exportio.MetadataRecord       `json:"record"`
	ROI    *exporttask.FeatureCollection `json:"roi"`
	// BBox is the exported area's box, [west, south, east, north] in
	// degrees; the tiles reach beyond it to their own edges.
	BBox exportio.BBox `json:"bbox"`
	// TilesetBBox is the main root's region in degrees (for a box or
	// sphere volume, the region that holds it).
	TilesetBBox exportio.BBox `json:"tilesetBBox"`
	// MinZoom and MaxZoom are the record's first level and the deepest
	// level exported, in the record's terms (see [ParamMaxZoom]).
	MinZoom       int                         `json:"minZoom"`
	MaxZoom       int                         `json:"maxZoom"`
	Tiles         int                         `json:"tiles"`         // tiles in the subset, content-less ones included, in every tileset JSON file
	ContentTiles  int                         `json:"contentTiles"`  // tiles with a content that is not a tileset
	TilesetFormat string                      `json:"tilesetFormat"` // "3D Tiles <version>" of the main tileset JSON
	Artifacts     []exportio.MetadataArtifact `json:"artifacts"`
}

func (p *plan) metadata(j export.Job, arts []exporttask.Artifact) Metadata {
	rb := p.sel.root.box()
	offset := 0
	if j.Record.Source == nil {
		offset = 1
	}
	return Metadata{
		Record:        exportio.MetadataRecord{ID: j.Record.ID, Domain: j.Record.Domain, Title: j.Record.Title},
		ROI:           exportio.ROI(j.Request, j.Record),
		BBox:          exportio.BBox{j.Box.West, j.Box.South, j.Box.East, j.Box.North},
		TilesetBBox:   exportio.BBox{rb.West, rb.South, rb.East, rb.North},
		MinZoom:       j.Record.MinZoom,
		MaxZoom:       p.sel.maxLevel + j.Record.MinZoom - offset,
		Tiles:         p.sel.tiles,
		ContentTiles:  p.sel.contentTiles,
		TilesetFormat: "3D Tiles " + p.sel.version,
		Artifacts:     exportio.MetadataArtifacts(arts),
	}
}
