package simulate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
)

// Config configures a [Simulator]. The zero value is usable.
type Config struct {
	// Duration is how long each export takes. Default 30s.
	Duration time.Duration
	// Steps is how many equal slices Duration is cut into; progress is
	// reported after each slice but the last (so 10 steps report 10, 20,
	// ..., 90 percent, and the store sets 100 on completion). At most 100.
	// Default 10.
	Steps int
	// Fail, when set, is called before each progress report with the
	// progress about to be reported, and with 100 before the artifacts are
	// returned; a non-nil error makes the export fail with it. It injects
	// failures in tests. Default nil: exports never fail.
	Fail func(t exporttask.Task, progress int) error
}

// Simulator is an [export.Exporter] that does no real work: it accepts
// any catalog record id, waits, reports progress, and writes one small text
// file per artifact type of the domain, with plausible names. Its size
// estimate grows with the area of the region of interest (the whole record,
// counted as 1,000 km², when there is none) at a rate that depends on the
// domain, as a real product's would; the files it writes are much smaller
// stand-ins, and the artifacts report their real sizes. It is safe for
// concurrent use.
type Simulator struct {
	duration time.Duration
	steps    int
	fail     func(exporttask.Task, int) error
}

var _ export.Exporter = (*Simulator)(nil)

// New returns a Simulator configured by cfg, with defaults for the
// fields left zero.
func New(cfg Config) *Simulator {
	s := &Simulator{
		duration: cfg.Duration,
		steps:    cfg.Steps,
		fail:     cfg.Fail,
	}
	if s.duration <= 0 {
		s.duration = 30 * time.Second
	}
	if s.steps <= 0 {
		s.steps = 10
	}
	s.steps = min(s.steps, 100)
	return s
}

// recordAreaKm2 is the area a task without a region of interest exports:
// the simulator has no catalog, so every record counts as this large.
const recordAreaKm2 = 1000

// artifactSpec says how large an artifact of some type is: fixed bytes plus
// bytes per square kilometre of the exported region.
type artifactSpec struct {
	fixed  int64
	perKm2 float64
	name   string // the file name, after the record's file base when it starts with "."
}

// simulatedArtifact describes the simulated file of each artifact type,
// named as the real exporters name it. The rates are of the order of real
// products: a 0.5 m orthophoto in GeoPackage, a 10 m elevation model in
// GeoTIFF, a textured 3D mesh.
func simulatedArtifact(t exporttask.ArtifactType) artifactSpec {
	const kib, mib = 1 << 10, 1 << 20
	switch t {
	case exporttask.ArtifactGPKG:
		return artifactSpec{fixed: 64 * kib, perKm2: 1.5 * mib, name: ".gpkg"}
	case exporttask.ArtifactModel:
		return artifactSpec{fixed: 64 * kib, perKm2: 40 * kib, name: ".tif"}
	case exporttask.Artifact3DModel:
		return artifactSpec{fixed: 256 * kib, perKm2: 4 * mib, name: ".zip"}
	case exporttask.ArtifactMetadata:
		return artifactSpec{fixed: 6 * kib, name: "metadata.json"}
	case exporttask.ArtifactROI:
		return artifactSpec{fixed: 2 * kib, name: "roi.geojson"}
	case exporttask.ArtifactThumbnailsSmall:
		return artifactSpec{fixed: 8 * kib, name: "thumbnail-small.png"}
	case exporttask.ArtifactThumbnailsMedium:
		return artifactSpec{fixed: 48 * kib, name: "thumbnail-medium.png"}
	case exporttask.ArtifactThumbnailsLarge:
		return artifactSpec{fixed: 256 * kib, name: "thumbnail-large.png"}
	}
	return artifactSpec{fixed: 4 * kib, name: "." + strings.ToLower(string(t))}
}

// ProducedTypes returns the artifact types the real exporters of domain d
// write, in their order: no legend (none of them draws one).
func ProducedTypes(d exporttask.Domain) []exporttask.ArtifactType {
	switch d {
	case exporttask.DomainRaster:
		return []exporttask.ArtifactType{exporttask.ArtifactGPKG, exporttask.ArtifactThumbnailsSmall,
			exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge, exporttask.ArtifactMetadata}
	case exporttask.DomainDEM:
		return []exporttask.ArtifactType{exporttask.ArtifactModel, exporttask.ArtifactROI, exporttask.ArtifactMetadata}
	case exporttask.Domain3D:
		return []exporttask.ArtifactType{exporttask.Artifact3DModel, exporttask.ArtifactThumbnailsSmall,
			exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge, exporttask.ArtifactMetadata}
	}
	return nil
}

// plannedArtifact is an artifact's name, type and size before it exists.
type plannedArtifact struct {
	name string
	typ  exporttask.ArtifactType
	size int64
}

// plan lists the artifacts an export of that request would produce.
func plan(recordID string, d exporttask.Domain, roi *exporttask.FeatureCollection) ([]plannedArtifact, error) {
	types := ProducedTypes(d)
	if types == nil {
		return nil, fmt.Errorf("simulate: unknown domain %q", d)
	}
	area := float64(recordAreaKm2)
	if roi != nil {
		a, err := roi.AreaKm2()
		if err != nil {
			return nil, fmt.Errorf("simulate: %w", err)
		}
		area = a
	}
	base := exportio.FileBase(recordID)
	out := make([]plannedArtifact, 0, len(types))
	for _, t := range types {
		spec := simulatedArtifact(t)
		size := spec.fixed + int64(math.Round(spec.perKm2*area))
		name := spec.name
		if strings.HasPrefix(name, ".") {
			name = base + name
		}
		out = append(out, plannedArtifact{name: name, typ: t, size: size})
	}
	return out, nil
}

// Estimate returns the total size and the types of the artifacts an
// export of r would produce, and the configured Duration (rounded up to
// whole seconds) as its time. It fails for an unknown domain or an ROI whose geometry is not a
// Polygon or MultiPolygon of finite positions.
func (s *Simulator) Estimate(_ context.Context, r exporttask.CreateRequest) (export.Estimate, error) {
	p, err := plan(r.CatalogRecordID, r.Domain, r.ROI)
	if err != nil {
		return export.Estimate{}, err
	}
	var size int64
	types := make([]exporttask.ArtifactType, 0, len(p))
	for _, a := range p {
		size += a.size
		types = append(types, a.typ)
	}
	secs := int64(math.Ceil(s.duration.Seconds()))
	return export.Estimate{Size: size, Time: max(secs, 1), Artifacts: types}, nil
}

// Export waits Duration in Steps slices, reporting progress (done slices
// out of Steps) through out after each but the last, then writes the task's
// artifacts through out: small real files (a short text naming the task,
// the record and the simulated type, not a real GeoPackage or GeoTIFF), so
// that downloads work. The artifacts' sizes and SHA-256 are those of these
// files, not of the estimate. Export stops with ctx's error when ctx is
// done, and with out's error when a progress report fails.
func (s *Simulator) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	p, err := plan(t.CatalogRecordID, t.Domain, t.ROI)
	if err != nil {
		return nil, export.Permanent(err.Error(), nil)
	}
	step := s.duration / time.Duration(s.steps)
	timer := time.NewTimer(step)
	defer timer.Stop()
	for i := 1; i <= s.steps; i++ {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("simulate: export of task %d stopped: %w", t.ID, context.Cause(ctx))
		case <-timer.C:
		}
		progress := i * 100 / s.steps
		if s.fail != nil {
			if err := s.fail(t, progress); err != nil {
				return nil, err
			}
		}
		if i == s.steps {
			break
		}
		if err := out.Progress(int64(i), int64(s.steps)); err != nil {
			return nil, fmt.Errorf("simulate: reporting progress of task %d: %w", t.ID, err)
		}
		timer.Reset(step)
	}
	arts := make([]exporttask.Artifact, 0, len(p))
	for _, a := range p {
		info, err := writeFile(ctx, out, a.name, simulatedContent(t, a))
		if err != nil {
			return nil, fmt.Errorf("simulate: task %d: %w", t.ID, err)
		}
		arts = append(arts, exporttask.Artifact{Name: a.name, Type: a.typ, Size: info.Size, SHA256: info.SHA256})
	}
	return arts, nil
}

// writeFile writes body as the artifact name through out.
func writeFile(ctx context.Context, out export.Output, name string, body []byte) (artifact.Info, error) {
	w, err := out.Create(ctx, name)
	if err != nil {
		return artifact.Info{}, fmt.Errorf("creating %s: %w", name, err)
	}
	defer w.Abort()
	if _, err := w.Write(body); err != nil {
		return artifact.Info{}, fmt.Errorf("writing %s: %w", name, err)
	}
	info, err := w.Commit()
	if err != nil {
		return artifact.Info{}, fmt.Errorf("committing %s: %w", name, err)
	}
	return info, nil
}

// simulatedContent is the text of a simulated artifact: it names the task,
// the record, the artifact type and the size a real product would have, so
// the same task always gets the same bytes.
func simulatedContent(t exporttask.Task, a plannedArtifact) []byte {
	return fmt.Appendf(nil, "Simulated %s artifact %s of export task %d (catalog record %q, domain %s).\n"+
		"A real export of this request would be about %d bytes.\n",
		a.typ, a.name, t.ID, t.CatalogRecordID, t.Domain, a.size)
}
