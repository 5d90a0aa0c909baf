package export

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/clock"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// CatalogExporter is the [Exporter] of real exports over a catalog: it
// looks the requested record up, checks the request against it and hands a
// [Job] to the [Engine] of the record's domain. It is safe for concurrent
// use when its catalog and domains are.
type CatalogExporter struct {
	cat     Catalog
	domains map[exporttask.Domain]Engine
	scratch string
	clock   clock.Clock
	// learned holds each domain's time factor (see calibration); the
	// map is made in New and never changes.
	learned map[exporttask.Domain]*calibration
}

// Option configures a [CatalogExporter].
type Option func(*CatalogExporter)

// WithScratchDir gives each export a scratch directory of its own under
// dir, named task-ID-attempt-N (see [Job.ScratchDir]), and removes it when
// the export returns, whatever the outcome. dir must exist. Default: none,
// each engine writes its scratch files where its options say.
func WithScratchDir(dir string) Option {
	return func(e *CatalogExporter) { e.scratch = dir }
}

// WithClock sets the clock a CatalogExporter times its exports by (see
// Estimate). Default: the system clock.
func WithClock(c clock.Clock) Option {
	return func(e *CatalogExporter) { e.clock = c }
}

// New returns a CatalogExporter over cat that exports the records of each domain
// in domains with its Engine, or an error when cat is nil. Records of a
// domain missing from the map cannot be exported.
func New(cat Catalog, domains map[exporttask.Domain]Engine, opts ...Option) (*CatalogExporter, error) {
	if cat == nil {
		return nil, errors.New("export: New needs a catalog")
	}
	m := make(map[exporttask.Domain]Engine, len(domains))
	learned := make(map[exporttask.Domain]*calibration, len(domains))
	for d, x := range domains {
		m[d] = x
		learned[d] = &calibration{}
	}
	e := &CatalogExporter{cat: cat, domains: m, learned: learned, clock: clock.Real()}
	for _, o := range opts {
		o(e)
	}
	return e, nil
}

// Estimate checks r against its catalog record and forecasts the export.
// An unknown record is an error wrapping [catalog.ErrNotFound]; a
// request whose domain is not the record's, or whose ROI misses the
// record's footprint, is a *[exporttask.ValidationError] naming /domain or
// /ROI; so is anything the engine refuses (its parameters).
//
// The time is the engine's estimate scaled by how long this CatalogExporter's
// recent exports of the domain took against their estimates (the median
// ratio of the last few; see calibration): the engines assume a quiet
// machine, and the exports follow the machine's load.
func (e *CatalogExporter) Estimate(ctx context.Context, r exporttask.CreateRequest) (Estimate, error) {
	j, d, err := e.job(ctx, r)
	if err != nil {
		return Estimate{}, err
	}
	est, err := d.Estimate(ctx, j)
	if err != nil {
		return Estimate{}, fmt.Errorf("export: estimating record %s: %w", j.record.ID, err)
	}
	est.Time = e.learned[j.record.Domain].scale(est.Time)
	est.SourceVersion = j.record.Source.Version()
	return est, nil
}

// Export runs the export of t, writing its artifacts through out. The
// checks of Estimate are made again (the catalog may have changed since the
// task was created); a failed check is an [PermanentError], as
// retrying cannot fix it. The time an export that succeeds takes, against
// the engine's estimate of the job (made again before the export, for a
// task estimated at 2 s or more), is what later estimates of the domain
// are scaled by.
func (e *CatalogExporter) Export(ctx context.Context, t exporttask.Task, out Output) ([]exporttask.Artifact, error) {
	j, d, err := e.job(ctx, t.CreateRequest)
	if err != nil {
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, Permanent("catalog record "+t.CatalogRecordID+" no longer exists", err)
		}
		var ve *exporttask.ValidationError
		if errors.As(err, &ve) {
			return nil, Permanent(ve.Error(), err)
		}
		return nil, err
	}
	if e.scratch != "" {
		dir := filepath.Join(e.scratch, fmt.Sprintf("task-%d-attempt-%d", t.ID, t.Attempts))
		// A directory left by a crash of this very attempt is stale.
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("export: clearing the scratch directory: %w", err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			return nil, fmt.Errorf("export: making the scratch directory: %w", err)
		}
		defer os.RemoveAll(dir)
		j = j.Scratch(dir)
	}
	// The engine's estimate of this very job, unscaled, for the
	// calibration: made before the export, as a create makes it. A task
	// estimated under calibrateFrom (a small export) teaches nothing and
	// is not estimated again.
	var base Estimate
	baseErr := errSmall
	if t.EstimatedTime >= calibrateFrom {
		base, baseErr = d.Estimate(ctx, j)
	}
	start := e.clock.Now()
	arts, err := d.Export(ctx, j, out)
	if err == nil && baseErr == nil {
		e.learned[j.record.Domain].observe(base.Time, e.clock.Now().Sub(start))
	}
	var ve *exporttask.ValidationError
	if err != nil && !IsPermanent(err) && errors.As(err, &ve) {
		// What an engine refuses of the request at export time (a region
		// that meets none of its data) stays refused: retrying cannot
		// change it.
		return nil, Permanent(ve.Error(), err)
	}
	return arts, err
}

// job looks r's record up and builds its Job.
func (e *CatalogExporter) job(ctx context.Context, r exporttask.CreateRequest) (Job, Engine, error) {
	rec, err := e.cat.Record(ctx, r.CatalogRecordID)
	if err != nil {
		return Job{}, nil, fmt.Errorf("export: %w", err)
	}
	if rec.Domain != r.Domain {
		return Job{}, nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/domain",
			Message: fmt.Sprintf("catalog record %s is of domain %s, not %s", rec.ID, rec.Domain, r.Domain)})
	}
	d := e.domains[rec.Domain]
	if d == nil {
		return Job{}, nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/domain",
			Message: fmt.Sprintf("this service does not export %s records", rec.Domain)})
	}
	j, err := NewJob(rec, r)
	if err != nil {
		return Job{}, nil, err
	}
	return j, d, nil
}

// NewJob builds the Job of exporting rec for r: the footprint and ROI as
// geometry, and Box, the ROI's bounding box intersected with the
// footprint's. A record whose footprint cannot be read is an error; an ROI
// that cannot be read, misses the footprint, or meets it only along an
// edge or at a corner (the area to export would have no width or no
// height) is a *[exporttask.ValidationError] naming /ROI.
func NewJob(rec catalog.Record, r exporttask.CreateRequest) (Job, error) {
	fp, err := FromGeometry(rec.Footprint)
	if err != nil {
		return Job{}, fmt.Errorf("export: catalog record %s: footprint: %w", rec.ID, err)
	}
	roi, err := FromROI(r.ROI)
	if err != nil {
		return Job{}, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI", Message: err.Error()})
	}
	box := fp.BBox()
	a := newArea(fp, roi)
	if roi != nil {
		if !a.roi.Intersects(a.fp) {
			msg := fmt.Sprintf("does not intersect the footprint of catalog record %s (%s)", rec.ID, boxString(box))
			if swapped(roi).Intersects(fp) {
				msg += "; with longitude and latitude swapped it would: GeoJSON positions are [longitude, latitude]"
			}
			return Job{}, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI", Message: msg})
		}
		box = box.Intersect(roi.BBox())
		if !(box.Width() > 0 && box.Height() > 0) {
			return Job{}, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
				Message: fmt.Sprintf("meets the footprint of catalog record %s (%s) only along its edge or at a corner: "+
					"the area to export has no width or no height", rec.ID, boxString(fp.BBox()))})
		}
	}
	return Job{record: rec, request: r, box: box, area: a}, nil
}

// boxString writes b as west,south,east,north.
func boxString(b geom.BBox) string {
	return fmt.Sprintf("lon %g..%g, lat %g..%g", b.West, b.East, b.South, b.North)
}

// swapped returns m with every point's coordinates exchanged, as a client
// that wrote [latitude, longitude] meant it.
func swapped(m geom.MultiPolygon) geom.MultiPolygon {
	out := make(geom.MultiPolygon, len(m))
	for i, p := range m {
		out[i] = make(geom.Polygon, len(p))
		for k, r := range p {
			ring := make(geom.Ring, len(r))
			for n, pt := range r {
				ring[n] = geom.Point{X: pt.Y, Y: pt.X}
			}
			out[i][k] = ring
		}
	}
	return out
}
