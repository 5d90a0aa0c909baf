package export_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

const (
	rasterID = "8b867544-2dab-43a1-be6e-f23ec83c19b4"
	demID    = "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"
)

// mapCatalog is a Catalog over a map.
type mapCatalog map[string]catalog.Record

func (m mapCatalog) Record(_ context.Context, id string) (catalog.Record, error) {
	rec, ok := m[id]
	if !ok {
		return catalog.Record{}, fmt.Errorf("record %s: %w", id, catalog.ErrNotFound)
	}
	return rec, nil
}

// recorder is an Engine that remembers its last job.
type recorder struct{ job export.Job }

func (r *recorder) Estimate(_ context.Context, j export.Job) (export.Estimate, error) {
	r.job = j
	return export.Estimate{Size: 42, Time: 1}, nil
}

func (r *recorder) Export(_ context.Context, j export.Job, _ export.Output) ([]exporttask.Artifact, error) {
	r.job = j
	return []exporttask.Artifact{{Name: "x", Type: exporttask.ArtifactGPKG}}, nil
}

func square(w, s, e, n float64) *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}})
}

func roi(g *exporttask.Geometry) *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection,
		Features: []exporttask.Feature{{Type: exporttask.TypeFeature, Geometry: g}}}
}

func fixture() (*export.CatalogExporter, *recorder) {
	cat := mapCatalog{
		rasterID: {ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32), MaxZoom: 5},
		demID:    {ID: demID, Domain: exporttask.DomainDEM, Footprint: square(34, 31, 35, 32), Resolution: 0.01},
	}
	rec := &recorder{}
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{exporttask.DomainRaster: rec})
	if err != nil {
		panic(err) // cat is not nil
	}
	return x, rec
}

func TestEstimateRefusals(t *testing.T) {
	cases := []struct {
		name    string
		req     exporttask.CreateRequest
		pointer string // "" for not found
	}{
		{"unknown record", exporttask.CreateRequest{CatalogRecordID: "00000000-0000-4000-8000-000000000000",
			Domain: exporttask.DomainRaster}, ""},
		{"other domain", exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainDEM}, "/domain"},
		{"domain without exporter", exporttask.CreateRequest{CatalogRecordID: demID, Domain: exporttask.DomainDEM}, "/domain"},
		{"ROI outside the footprint", exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainRaster,
			ROI: roi(square(10, 10, 11, 11))}, "/ROI"},
		{"ROI of the wrong type", exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainRaster,
			ROI: roi(&exporttask.Geometry{Type: "Point"})}, "/ROI"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, _ := fixture()
			_, err := x.Estimate(context.Background(), c.req)
			require.Error(t, err)
			if c.pointer == "" {
				assert.ErrorIs(t, err, catalog.ErrNotFound)
				return
			}
			var ve *exporttask.ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, 1)
			assert.Equal(t, c.pointer, ve.Problems[0].Pointer)

			// At export time the same refusal is permanent.
			_, err = x.Export(context.Background(), exporttask.Task{CreateRequest: exporttask.CreateRequest{
				CatalogRecordID: c.req.CatalogRecordID, Domain: c.req.Domain, ROI: c.req.ROI}}, nil)
			assert.True(t, export.IsPermanent(err), "export error %v", err)
		})
	}
}

func TestSwappedCoordinatesGetAHint(t *testing.T) {
	x, _ := fixture()
	// lat 31.2..31.3, lon 34.5..34.6 written as [lat, lon].
	_, err := x.Estimate(context.Background(), exporttask.CreateRequest{CatalogRecordID: rasterID,
		Domain: exporttask.DomainRaster, ROI: roi(square(31.2, 34.5, 31.3, 34.6))})
	var ve *exporttask.ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, "/ROI", ve.Problems[0].Pointer)
	assert.Contains(t, ve.Problems[0].Message, "longitude and latitude swapped")

	// A ROI that misses the footprint either way gets no such hint.
	_, err = x.Estimate(context.Background(), exporttask.CreateRequest{CatalogRecordID: rasterID,
		Domain: exporttask.DomainRaster, ROI: roi(square(10, 10, 11, 11))})
	require.ErrorAs(t, err, &ve)
	assert.NotContains(t, ve.Problems[0].Message, "swapped")
}

func TestExportUnknownRecordIsPermanent(t *testing.T) {
	x, _ := fixture()
	_, err := x.Export(context.Background(), exporttask.Task{CreateRequest: exporttask.CreateRequest{CatalogRecordID: demID[:35] + "1", Domain: exporttask.DomainDEM}}, nil)
	assert.True(t, export.IsPermanent(err))
	assert.ErrorIs(t, err, catalog.ErrNotFound)
}

func TestJobBoxIsROIAndFootprint(t *testing.T) {
	x, rec := fixture()
	est, err := x.Estimate(context.Background(), exporttask.CreateRequest{CatalogRecordID: rasterID,
		Domain: exporttask.DomainRaster, ROI: roi(square(34.5, 30, 36, 31.25))})
	require.NoError(t, err)
	assert.Equal(t, int64(42), est.Size)
	assert.Equal(t, export.Box{West: 34.5, South: 31, East: 35, North: 31.25}, rec.job.Box())
	assert.True(t, rec.job.Contains(34.7, 31.1))
	assert.False(t, rec.job.Contains(34.2, 31.1), "outside the ROI")

	arts, err := x.Export(context.Background(), exporttask.Task{CreateRequest: exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainRaster}}, nil)
	require.NoError(t, err)
	require.Len(t, arts, 1)
	assert.Nil(t, rec.job.Request().ROI)
	assert.Equal(t, export.Box{West: 34, South: 31, East: 35, North: 32}, rec.job.Box(), "no ROI: the whole footprint")
}

func TestNewJobBadFootprint(t *testing.T) {
	_, err := export.NewJob(catalog.Record{ID: rasterID, Footprint: &exporttask.Geometry{Type: "Point"}},
		exporttask.CreateRequest{})
	require.Error(t, err)
	assert.False(t, errors.As(err, new(*exporttask.ValidationError)), "a broken record is not the client's fault")
}

// TestROIOnTheFootprintsEdge: a ROI that meets the footprint only along an
// edge or at a corner is refused at /ROI; one that overlaps it by a sliver
// is a job whose box is that sliver.
func TestROIOnTheFootprintsEdge(t *testing.T) {
	rec := catalog.Record{ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32)}
	for name, r := range map[string]*exporttask.Geometry{
		"along the east edge":      square(35, 31.2, 35.5, 31.4),
		"at the north-west corner": square(33.5, 32, 34, 32.5),
		"a line on the south edge": exporttask.NewPolygon([]exporttask.Position{{34.2, 31}, {34.4, 31}, {34.3, 30.5}, {34.2, 31}}),
	} {
		_, err := export.NewJob(rec, exporttask.CreateRequest{ROI: roi(r)})
		var ve *exporttask.ValidationError
		require.ErrorAs(t, err, &ve, name)
		assert.Equal(t, "/ROI", ve.Problems[0].Pointer, name)
		assert.Contains(t, ve.Problems[0].Message, "only along its edge or at a corner", name)
	}
	j, err := export.NewJob(rec, exporttask.CreateRequest{ROI: roi(square(35-1e-12, 31.2, 35.5, 31.4))})
	require.NoError(t, err, "a sliver 1e-12 degrees wide has an area")
	assert.Greater(t, j.Box().Width(), 0.0)
}

// refuser is an Engine that refuses every request's region.
type refuser struct{}

func (refuser) Estimate(context.Context, export.Job) (export.Estimate, error) {
	return export.Estimate{}, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI", Message: "meets no data"})
}

func (refuser) Export(context.Context, export.Job, export.Output) ([]exporttask.Artifact, error) {
	return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI", Message: "meets no data"})
}

// TestDomainRefusalAtExportIsPermanent: what a domain refuses of a
// request is the client's 400 at create, and a permanent failure when it
// comes up only at export time.
func TestDomainRefusalAtExportIsPermanent(t *testing.T) {
	cat := mapCatalog{rasterID: {ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32)}}
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{exporttask.DomainRaster: refuser{}})
	require.NoError(t, err)
	req := exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainRaster}
	_, err = x.Estimate(context.Background(), req)
	var ve *exporttask.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.False(t, export.IsPermanent(err))
	_, err = x.Export(context.Background(), exporttask.Task{CreateRequest: req}, nil)
	assert.True(t, export.IsPermanent(err), "%v", err)
	assert.ErrorContains(t, err, "meets no data")
}

// scratcher is an Engine that writes a file into its job's scratch
// directory and reports where, then fails when told to.
type scratcher struct {
	dir  string
	fail error
}

func (s *scratcher) Estimate(context.Context, export.Job) (export.Estimate, error) {
	return export.Estimate{Size: 1, Time: 1}, nil
}

func (s *scratcher) Export(_ context.Context, j export.Job, _ export.Output) ([]exporttask.Artifact, error) {
	s.dir = j.ScratchDir()
	if err := os.WriteFile(filepath.Join(j.ScratchDir(), "part.gpkg"), []byte("x"), 0o600); err != nil {
		return nil, err
	}
	return nil, s.fail
}

// TestScratchDirPerTaskAndAttempt: each export gets an empty directory
// named after its task and attempt, removed when it returns, failed or
// not; one left by a crash of the same attempt is cleared first.
func TestScratchDirPerTaskAndAttempt(t *testing.T) {
	root := t.TempDir()
	cat := mapCatalog{rasterID: {ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32)}}
	d := &scratcher{}
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{exporttask.DomainRaster: d}, export.WithScratchDir(root))
	require.NoError(t, err)
	task := exporttask.Task{ID: 7, Attempts: 2, CreateRequest: exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainRaster}}

	stale := filepath.Join(root, "task-7-attempt-2")
	require.NoError(t, os.MkdirAll(stale, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(stale, "old.gpkg"), []byte("x"), 0o600))
	_, err = x.Export(context.Background(), task, nil)
	require.NoError(t, err)
	assert.Equal(t, stale, d.dir)
	assert.NoDirExists(t, stale, "removed after the export")

	d.fail = errors.New("boom")
	_, err = x.Export(context.Background(), task, nil)
	require.ErrorIs(t, err, d.fail)
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Empty(t, entries, "removed after a failed export too")
}
