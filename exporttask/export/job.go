package export

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// Job is one export as a domain exporter sees it: the catalog record, the
// request (or the stored task), and the area to export, which is the
// request's region of interest intersected with the record's footprint.
type Job struct {
	// Record is the catalog record being exported.
	Record exporttask.Record
	// Request is the request: at estimate time the create request, at
	// export time the stored task's.
	Request exporttask.CreateRequest
	// Footprint is the record's footprint.
	Footprint geom.MultiPolygon
	// ROI is the request's region of interest; nil exports the whole
	// footprint.
	ROI geom.MultiPolygon
	// Box is the bounding box of the exported area: the ROI's box
	// intersected with the footprint's.
	Box geom.BBox
}

// Contains reports whether the point (lon, lat) is in the exported area:
// inside the footprint and, when there is one, inside the ROI.
func (j Job) Contains(lon, lat float64) bool {
	if !j.Box.ContainsPoint(lon, lat) || !j.Footprint.ContainsPoint(lon, lat) {
		return false
	}
	return j.ROI == nil || j.ROI.ContainsPoint(lon, lat)
}

// IntersectsBox reports whether the box b (a tile's extent, say) meets the
// exported area: it meets the footprint and, when there is one, the ROI.
func (j Job) IntersectsBox(b geom.BBox) bool {
	if !j.Box.Intersects(b) || !j.Footprint.IntersectsBox(b) {
		return false
	}
	return j.ROI == nil || j.ROI.IntersectsBox(b)
}

// Domain exports the records of one domain. The raster, dem and tiles3d
// packages implement it; [Exporter] picks one by the record's domain.
type Domain interface {
	// Estimate forecasts the export's size and duration from the source
	// data the job selects.
	Estimate(ctx context.Context, j Job) (exporttask.Estimate, error)
	// Export writes the artifacts through out and returns them (name,
	// type, size, SHA-256; no URL). It reports progress through out as
	// real work done. A failure that retrying cannot fix is returned as
	// an [exporttask.PermanentError].
	Export(ctx context.Context, j Job, out exporttask.Output) ([]exporttask.Artifact, error)
}

// InsideRow sets inside[x] to whether the point (lon0 + x·step, lat) is in
// the exported area, as [Job.Contains] would say, for every x in
// 0..len(inside)-1: one row of pixel centres at a time. Exporters that
// mask a grid call it once per row instead of Contains once per pixel.
func (j Job) InsideRow(lat, lon0, step float64, inside []bool) {
	for x := range inside {
		inside[x] = j.Contains(lon0+float64(x)*step, lat)
	}
}
