package export

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// Job is one export as an [Engine] sees it: the catalog record, the
// request (or the stored task), and the area to export, which is the
// request's region of interest intersected with the record's footprint.
//
// A Job is made by [NewJob], which converts the footprint and ROI to planar
// polygons once and indexes them, so that [Job.InsideRow],
// [Job.Contains] and [Job.IntersectsBox] read only the edges near each
// query; copies share the index. A Job is fixed once made: its parts are
// read through methods. The zero Job has no area (it contains no point).
type Job struct {
	record     catalog.Record
	request    exporttask.CreateRequest
	box        Box
	scratchDir string
	area       *area
}

// Record is the catalog record being exported; its footprint bounds the
// exported area.
func (j Job) Record() catalog.Record { return j.record }

// Request is the request: at estimate time the create request, at export
// time the stored task's. Its ROI, when not nil, bounds the exported area;
// nil exports the whole footprint.
func (j Job) Request() exporttask.CreateRequest { return j.request }

// Box is the bounding box of the exported area: the ROI's box intersected
// with the footprint's.
func (j Job) Box() Box { return j.box }

// ScratchDir is an empty directory of this export's own (this task and
// attempt) where an engine writes its scratch files during Export; the
// [CatalogExporter] removes it afterwards. Empty when the CatalogExporter
// has no scratch directory: the engine then uses its own default.
func (j Job) ScratchDir() string { return j.scratchDir }

// Scratch returns a copy of j (sharing its index) whose ScratchDir is dir.
func (j Job) Scratch(dir string) Job {
	j.scratchDir = dir
	return j
}

// Box is an axis-aligned box in degrees of longitude (West, East) and
// latitude (South, North); West ≤ East and South ≤ North unless it is
// empty. It is the planar geometry's box, with its methods (Empty, Width,
// Height, Intersect, Intersects, ContainsPoint).
type Box = geom.BBox

// Contains reports whether the point (lon, lat) is in the exported area:
// inside the footprint and, when there is one, inside the ROI.
func (j Job) Contains(lon, lat float64) bool {
	a := j.area
	return a != nil && j.box.ContainsPoint(lon, lat) &&
		a.fp.ContainsPoint(lon, lat) && (a.roi == nil || a.roi.ContainsPoint(lon, lat))
}

// IntersectsBox reports whether the box b (a tile's extent, say) meets the
// exported area: it meets the footprint and, when there is one, the ROI.
func (j Job) IntersectsBox(b Box) bool {
	a := j.area
	return a != nil && j.box.Intersects(b) &&
		a.fp.IntersectsBox(b) && (a.roi == nil || a.roi.IntersectsBox(b))
}

// Engine exports the records of one domain. The raster, dem and tiles3d
// packages implement it; [CatalogExporter] picks one by the record's domain.
type Engine interface {
	// Estimate forecasts the export's size and duration from the source
	// data the job selects.
	Estimate(ctx context.Context, j Job) (Estimate, error)
	// Export writes the artifacts through out and returns them (name,
	// type, size, SHA-256; no URL). It reports progress through out as
	// real work done. A failure that retrying cannot fix is returned as
	// an [PermanentError].
	Export(ctx context.Context, j Job, out Output) ([]exporttask.Artifact, error)
}

// InsideRow sets inside[x] to whether the point (lon0 + x·step, lat) is in
// the exported area, as [Job.Contains] would say, for every x in
// 0..len(inside)-1: one row of pixel centres at a time. Exporters that
// mask a grid call it once per row instead of Contains once per pixel.
// The longitude is computed as lon0 + float64(float64(x)*step), rounding
// the product first, on every platform. A row costs the edges of the
// footprint and ROI that cross it (found in the index by latitude) plus
// its pixels, not pixels × edges.
func (j Job) InsideRow(lat, lon0, step float64, inside []bool) {
	a := j.area
	if a == nil || !(lat >= j.box.South && lat <= j.box.North) {
		for x := range inside {
			inside[x] = false
		}
		return
	}
	for x := range inside {
		lon := lon0 + float64(float64(x)*step)
		inside[x] = lon >= j.box.West && lon <= j.box.East
	}
	a.fp.Row(lat).Mask(lon0, step, inside)
	if a.roi != nil {
		a.roi.Row(lat).Mask(lon0, step, inside)
	}
}

// The costs [Job.MaskTime] assumes: a row (or box) costs maskRowNs plus
// maskCrossingNs per edge crossing it, a pixel maskPixelNs. They are twice
// the CPU time BenchmarkInsideRow measured (go test -run XXX -bench
// InsideRow -benchtime 5x -count 2 ./exporttask/export, the lower count)
// on the shared 2-core development machine: 1.36 µs a row of 960 pixels
// for the plain ROI (4.5 edges crossing a row), 6.0 µs with 12,000 holes
// (186).
const (
	maskRowNs      = 500
	maskCrossingNs = 50
	maskPixelNs    = 2
)

// MaskTime is how long masking takes for an export that calls InsideRow
// or IntersectsBox rows times in all, over pixels pixels in all (a tile
// tested with IntersectsBox counts as a row of no pixels): the time a
// domain adds to its estimate for the ROI. A row costs in proportion to
// the edges of the footprint and ROI crossing it, on average over the
// job's box.
func (j Job) MaskTime(rows, pixels int64) time.Duration {
	a := j.area
	if a == nil {
		return 0
	}
	crossings := a.fp.MeanCrossings(j.box)
	if a.roi != nil {
		crossings += a.roi.MeanCrossings(j.box)
	}
	return time.Duration(float64(rows)*(maskRowNs+maskCrossingNs*crossings) + float64(pixels)*maskPixelNs)
}

// area is a Job's footprint and ROI as NewJob converted them once (roi is
// nil without an ROI), and their indexes.
type area struct {
	footprint, regionOfInterest geom.MultiPolygon
	fp, roi                     *geom.Index
}

// newArea converts and indexes a footprint and an ROI (nil for none).
func newArea(fp, roi geom.MultiPolygon) *area {
	a := &area{footprint: fp, regionOfInterest: roi, fp: geom.NewIndex(fp)}
	if roi != nil {
		a.roi = geom.NewIndex(roi)
	}
	return a
}
