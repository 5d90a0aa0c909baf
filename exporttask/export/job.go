package export

import (
	"context"
	"sync"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// Job is one export as an [Engine] sees it: the catalog record, the
// request (or the stored task), and the area to export, which is the
// request's region of interest intersected with the record's footprint.
//
// A Job made by [NewJob] holds the footprint and ROI as planar polygons
// and indexes them on first use (NewJob itself uses the index when there
// is an ROI; copies share it), so that [Job.InsideRow], [Job.Contains] and
// [Job.IntersectsBox] read only the edges near each query. Replacing
// Record.Footprint or Request.ROI makes a Job answer without the index,
// converting them at each call, as does building one as a literal;
// changing their positions in place is not allowed.
type Job struct {
	// Record is the catalog record being exported; its footprint bounds
	// the exported area.
	Record catalog.Record
	// Request is the request: at estimate time the create request, at
	// export time the stored task's. Its ROI, when not nil, bounds the
	// exported area; nil exports the whole footprint.
	Request exporttask.CreateRequest
	// Box is the bounding box of the exported area: the ROI's box
	// intersected with the footprint's.
	Box Box
	// ScratchDir is an empty directory of this export's own (this task and
	// attempt) where an engine writes its scratch files during Export; the
	// [Exporter] removes it afterwards. Empty when the Exporter has no
	// scratch directory: the engine then uses its own default.
	ScratchDir string

	area *area // set by NewJob
}

// Box is an axis-aligned box in degrees of longitude (West, East) and
// latitude (South, North); West ≤ East and South ≤ North unless it is
// empty.
type Box struct {
	West, South, East, North float64
}

// Empty reports whether b contains no point.
func (b Box) Empty() bool { return geom.BBox(b).Empty() }

// Width is the box's extent in degrees of longitude.
func (b Box) Width() float64 { return geom.BBox(b).Width() }

// Height is the box's extent in degrees of latitude.
func (b Box) Height() float64 { return geom.BBox(b).Height() }

// Contains reports whether the point (lon, lat) is in the exported area:
// inside the footprint and, when there is one, inside the ROI.
func (j Job) Contains(lon, lat float64) bool {
	if !geom.BBox(j.Box).ContainsPoint(lon, lat) {
		return false
	}
	if a := j.index(); a != nil {
		return a.fp.ContainsPoint(lon, lat) && (a.roi == nil || a.roi.ContainsPoint(lon, lat))
	}
	fp, roi := j.geometry()
	return fp.ContainsPoint(lon, lat) && (roi == nil || roi.ContainsPoint(lon, lat))
}

// IntersectsBox reports whether the box b (a tile's extent, say) meets the
// exported area: it meets the footprint and, when there is one, the ROI.
func (j Job) IntersectsBox(b Box) bool {
	box := geom.BBox(b)
	if !geom.BBox(j.Box).Intersects(box) {
		return false
	}
	if a := j.index(); a != nil {
		return a.fp.IntersectsBox(box) && (a.roi == nil || a.roi.IntersectsBox(box))
	}
	fp, roi := j.geometry()
	return fp.IntersectsBox(box) && (roi == nil || roi.IntersectsBox(box))
}

// Engine exports the records of one domain. The raster, dem and tiles3d
// packages implement it; [Exporter] picks one by the record's domain.
type Engine interface {
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
// The longitude is computed as lon0 + float64(float64(x)*step), rounding
// the product first, on every platform.
//
// On a Job made by [NewJob], a row costs the edges of the footprint and
// ROI that cross it (found in an index by latitude, built on first use)
// plus its pixels, not pixels × edges.
func (j Job) InsideRow(lat, lon0, step float64, inside []bool) {
	a := j.index()
	if a == nil {
		fp, roi := j.geometry() // once for the row
		box := geom.BBox(j.Box)
		for x := range inside {
			lon := lon0 + float64(float64(x)*step)
			inside[x] = box.ContainsPoint(lon, lat) && fp.ContainsPoint(lon, lat) && (roi == nil || roi.ContainsPoint(lon, lat))
		}
		return
	}
	if !(lat >= j.Box.South && lat <= j.Box.North) {
		for x := range inside {
			inside[x] = false
		}
		return
	}
	for x := range inside {
		lon := lon0 + float64(float64(x)*step)
		inside[x] = lon >= j.Box.West && lon <= j.Box.East
	}
	a.fp.Row(lat).Mask(lon0, step, inside)
	if a.roi != nil {
		a.roi.Row(lat).Mask(lon0, step, inside)
	}
}

// The costs [Job.MaskTime] assumes: a row (or box) costs maskRowNs plus
// maskCrossingNs per edge crossing it, a pixel maskPixelNs; without the
// index, a pixel or box costs maskNaiveEdgeNs per edge. They are twice the
// CPU time BenchmarkInsideRow measured (go test -run XXX -bench InsideRow
// -benchtime 5x -count 2 ./exporttask/export, the lower count) on the
// shared 2-core development machine: 1.36 µs a row of 960 pixels for the
// plain ROI (4.5 edges crossing a row), 6.0 µs with 12,000 holes (186),
// and 1.24 ns per pixel and edge for the test over every edge.
const (
	maskRowNs       = 500
	maskCrossingNs  = 50
	maskPixelNs     = 2
	maskNaiveEdgeNs = 2.5
)

// MaskTime is how long masking takes for an export that calls InsideRow
// or IntersectsBox rows times in all, over pixels pixels in all (a tile
// tested with IntersectsBox counts as a row of no pixels): the time a
// domain adds to its estimate for the ROI. A row costs in proportion to
// the edges of the footprint and ROI crossing it, on average over the
// job's box.
func (j Job) MaskTime(rows, pixels int64) time.Duration {
	a := j.index()
	if a == nil {
		// Without an index, every pixel and box reads every edge.
		fp, roi := j.geometry()
		return time.Duration(float64(rows+pixels) * float64(edges(fp)+edges(roi)) * maskNaiveEdgeNs)
	}
	crossings := a.fp.MeanCrossings(geom.BBox(j.Box))
	if a.roi != nil {
		crossings += a.roi.MeanCrossings(geom.BBox(j.Box))
	}
	return time.Duration(float64(rows)*(maskRowNs+maskCrossingNs*crossings) + float64(pixels)*maskPixelNs)
}

// edges counts the edges of m's rings.
func edges(m geom.MultiPolygon) (n int) {
	for _, p := range m {
		for _, r := range p {
			n += len(r)
		}
	}
	return n
}

// area is a Job's footprint and ROI as NewJob converted them, and their
// index, built on first use and shared by the copies of the Job.
type area struct {
	// The geometry converted, and what it was converted from: a Job
	// whose fields were changed since is answered without it.
	footprint, regionOfInterest geom.MultiPolygon
	record                      *exporttask.Geometry
	request                     *exporttask.FeatureCollection

	once    sync.Once
	fp, roi *geom.Index
}

// current reports whether a was made from j's footprint and ROI.
func (a *area) current(j Job) bool {
	return a != nil && a.record == j.Record.Footprint && a.request == j.Request.ROI
}

// geometry returns the footprint and ROI (nil for none) j answers for:
// those NewJob converted, or, for a Job built otherwise or changed since,
// converted now. A footprint or ROI that does not convert contains no
// point.
func (j Job) geometry() (fp, roi geom.MultiPolygon) {
	if a := j.area; a.current(j) {
		return a.footprint, a.regionOfInterest
	}
	fp, _ = exportio.FromGeometry(j.Record.Footprint)
	roi, err := exportio.FromROI(j.Request.ROI)
	if err != nil {
		roi = geom.MultiPolygon{}
	}
	return fp, roi
}

// index returns j's index, building it on first use; nil when j was not
// made by NewJob or its geometry has changed since.
func (j Job) index() *area {
	a := j.area
	if !a.current(j) {
		return nil
	}
	a.once.Do(func() {
		a.fp = geom.NewIndex(a.footprint)
		if a.regionOfInterest != nil {
			a.roi = geom.NewIndex(a.regionOfInterest)
		}
	})
	return a
}
