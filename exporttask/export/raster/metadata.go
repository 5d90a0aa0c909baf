package raster

import (
	"encoding/json"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
)

// LevelMetadata describes one exported level in the METADATA Item's
// "exporttask:levels".
type LevelMetadata struct {
	Zoom         int     `json:"zoom"`
	Tiles        int64   `json:"tiles"`
	Bytes        int64   `json:"bytes"`
	PixelSizeDeg float64 `json:"pixelSizeDeg"`
}

// metadataJSON builds the METADATA artifact, a STAC Item (see
// [exportio.NewItem]) made at now whose assets are arts, the export's
// other files.
func metadataJSON(j export.Job, sel selection, minZoom, maxZoom int, arts []exporttask.Artifact, now time.Time) ([]byte, error) {
	levels := make([]LevelMetadata, 0, len(sel.Levels))
	for _, l := range sel.Levels {
		levels = append(levels, LevelMetadata{Zoom: l.Zoom, Tiles: l.Tiles, Bytes: l.Bytes, PixelSizeDeg: pixelDegrees(l.Zoom)})
	}
	item := exportio.NewItem(exportio.ItemParams{
		Record: j.Record(), Area: j.Area(), BBox: j.Box(),
		Time: now, Artifacts: arts,
		Properties: map[string]any{
			"minZoom": minZoom, "maxZoom": maxZoom, "levels": levels,
			"tiles": sel.Tiles(), "tileBytes": sel.Bytes(),
		},
	})
	b, err := json.MarshalIndent(item, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
