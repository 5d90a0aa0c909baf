package tiles3d

import (
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
)

// metadata returns the METADATA artifact, a STAC Item (see
// [exportio.NewItem]) made at now whose assets are arts, the export's
// other files. Its 3D properties are listed in the package documentation.
func (p *plan) metadata(j export.Job, arts []exporttask.Artifact, now time.Time) exportio.STACItem {
	rb := p.sel.root.box()
	offset := 0
	if j.Record().Source == nil {
		offset = 1
	}
	return exportio.NewItem(exportio.ItemParams{
		Record: j.Record(), Area: j.Area(), BBox: j.Box(),
		Time: now, Artifacts: arts,
		Properties: map[string]any{
			"minZoom":        j.Record().MinZoom,
			"maxZoom":        p.sel.maxLevel + j.Record().MinZoom - offset,
			"tiles":          p.sel.tiles,
			"contentTiles":   p.sel.contentTiles,
			"tilesetVersion": p.sel.version,
			"tilesetBBox":    [4]float64{rb.West, rb.South, rb.East, rb.North},
		},
	})
}
