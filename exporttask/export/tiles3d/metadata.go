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
	// TilesetBBox is the subset root's region in degrees.
	TilesetBBox   exportio.BBox               `json:"tilesetBBox"`
	MinZoom       int                         `json:"minZoom"`
	MaxZoom       int                         `json:"maxZoom"`
	Tiles         int                         `json:"tiles"`         // tiles in the subset, the content-less root included
	ContentTiles  int                         `json:"contentTiles"`  // tiles with a .glb
	TilesetFormat string                      `json:"tilesetFormat"` // "3D Tiles <version>"
	Artifacts     []exportio.MetadataArtifact `json:"artifacts"`
}

func (p *plan) metadata(j export.Job, arts []exporttask.Artifact) Metadata {
	rb := p.subset.Root.BoundingVolume.box()
	return Metadata{
		Record:        exportio.MetadataRecord{ID: j.Record.ID, Domain: j.Record.Domain, Title: j.Record.Title},
		ROI:           exportio.ROI(j.Request, j.Record),
		BBox:          exportio.BBox{j.Box.West, j.Box.South, j.Box.East, j.Box.North},
		TilesetBBox:   exportio.BBox{rb.West, rb.South, rb.East, rb.North},
		MinZoom:       j.Record.MinZoom,
		MaxZoom:       j.Record.MaxZoom,
		Tiles:         p.tiles,
		ContentTiles:  len(p.uris),
		TilesetFormat: "3D Tiles " + p.subset.Asset.Version,
		Artifacts:     exportio.MetadataArtifacts(arts),
	}
}
