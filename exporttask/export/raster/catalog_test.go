package raster_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// TestThroughTheCatalog runs the way the server will: a record written
// into a file catalog with WriteDemoSource, exported by export.Exporter.
func TestThroughTheCatalog(t *testing.T) {
	root := t.TempDir()
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Title: "demo relief",
		Footprint: square(34, 31, 35, 32), MinZoom: fixtureMin, MaxZoom: fixtureMax}
	require.NoError(t, catalog.WriteRecord(root, rec, func(dir string) error { return raster.WriteDemoSource(dir, rec) }))
	cat, err := catalog.Open(root)
	require.NoError(t, err)
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{exporttask.DomainRaster: raster.New(raster.Options{TempDir: t.TempDir()})})
	require.NoError(t, err)

	req := exporttask.CreateRequest{CatalogRecordID: recordID, Domain: exporttask.DomainRaster,
		ROI: roiOf(square(34.5, 31.5, 36, 33)), Parameters: map[string]any{"maxZoom": float64(fixtureMax - 1)}}
	est, err := x.Estimate(context.Background(), req)
	require.NoError(t, err)
	assert.Positive(t, est.Size)

	out := testout.New(t.TempDir())
	arts, err := x.Export(context.Background(), exporttask.Task{ID: 1, CreateRequest: exporttask.CreateRequest{
		CatalogRecordID: req.CatalogRecordID, Domain: req.Domain, ROI: req.ROI, Parameters: req.Parameters}}, out)
	require.NoError(t, err)
	require.Len(t, arts, 5)
	var total int64
	for _, a := range arts {
		total += a.Size
	}
	assert.InEpsilon(t, float64(total), float64(est.Size), 0.25)

	req.Parameters = map[string]any{"maxZoom": float64(fixtureMax + 1)}
	_, err = x.Estimate(context.Background(), req)
	var ve *exporttask.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, "/parameters/maxZoom", ve.Problems[0].Pointer)
}
