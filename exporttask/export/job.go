package export

import (
	"context"
	"sync"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// Job is one export as a domain exporter sees it: the catalog record, the
// request (or the stored task), and the area to export, which is the
// request's region of interest intersected with the record's footprint.
//
// A Job made by [NewJob] indexes the footprint and ROI on first use (NewJob
// itself uses the index when there is an ROI; copies share it), so that [Job.InsideRow], [Job.Contains] and
// [Job.IntersectsBox] read only the edges near each query. Replacing
// Footprint or ROI makes a Job answer without the index, as does building
// one as a literal; changing their positions in place is not allowed.
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
	// ScratchDir is an empty directory of this export's own (this task and
	// attempt) where a domain writes its scratch files during Export; the
	// [Exporter] removes it afterwards. Empty when the Exporter has no
	// scratch directory: the domain then uses its own default.
	ScratchDir string

	area *area // set by NewJob
}

// Contains reports whether the point (lon, lat) is in the exported area:
// inside the footprint and, when there is one, inside the ROI.
func (j Job) Contains(lon, lat float64) bool {
	if !j.Box.ContainsPoint(lon, lat) {
		return false
	}
	if a := j.index(); a != nil {
		return a.fp.ContainsPoint(lon, lat) && (a.roi == nil || a.roi.ContainsPoint(lon, lat))
	}
	return j.Footprint.ContainsPoint(lon, lat) && (j.ROI == nil || j.ROI.ContainsPoint(lon, lat))
}

// IntersectsBox reports whether the box b (a tile's extent, say) meets the
// exported area: it meets the footprint and, when there is one, the ROI.
func (j Job) IntersectsBox(b geom.BBox) bool {
	if !j.Box.Intersects(b) {
		return false
	}
	if a := j.index(); a != nil {
		return a.fp.IntersectsBox(b) && (a.roi == nil || a.roi.IntersectsBox(b))
	}
	return j.Footprint.IntersectsBox(b) && (j.ROI == nil || j.ROI.IntersectsBox(b))
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
// The longitude is computed as lon0 + float64(float64(x)*step), rounding
// the product first, on every platform.
//
// On a Job made by [NewJob], a row costs the edges of the footprint and
// ROI that cross it (found in an index by latitude, built on first use)
// plus its pixels, not pixels × edges.
func (j Job) InsideRow(lat, lon0, step float64, inside []bool) {
	a := j.index()
	if a == nil || !(lat >= j.Box.South && lat <= j.Box.North) {
		for x := range inside {
			inside[x] = j.Contains(lon0+float64(float64(x)*step), lat)
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
		return time.Duration(float64(rows+pixels) * float64(edges(j.Footprint)+edges(j.ROI)) * maskNaiveEdgeNs)
	}
	crossings := a.fp.MeanCrossings(j.Box)
	if a.roi != nil {
		crossings += a.roi.MeanCrossings(j.Box)
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

// area is the index of a Job's footprint and ROI, built on first use and
// shared by the copies of the Job.
type area struct {
	once    sync.Once
	fp, roi *geom.Index
	// The geometry the index was built for: a Job whose fields were
	// changed since is answered without it.
	footprint, regionOfInterest geom.MultiPolygon
}

// index returns j's index, building it on first use; nil when j was not
// made by NewJob or its geometry has changed since.
func (j Job) index() *area {
	a := j.area
	if a == nil || !same(a.footprint, j.Footprint) || !same(a.regionOfInterest, j.ROI) {
		return nil
	}
	a.once.Do(func() {
		a.fp = geom.NewIndex(j.Footprint)
		if j.ROI != nil {
			a.roi = geom.NewIndex(j.ROI)
		}
	})
	return a
}

// same reports whether a and b are the same slice.
func same(a, b geom.MultiPolygon) bool {
	return len(a) == len(b) && (a == nil) == (b == nil) && (len(a) == 0 || &a[0] == &b[0])
}
