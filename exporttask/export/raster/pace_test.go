package raster_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/pacetest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// checkPaced exports j with a pacer in its context: the export takes at
// least minTurns turns at CPU work and ends each one; a pacer that
// refuses a turn midway fails the export with its error.
func checkPaced(t *testing.T, j export.Job, minTurns int) {
	t.Helper()
	p := pacetest.New()
	_, err := raster.New(raster.Options{TempDir: t.TempDir()}).Export(p.Context(t.Context()), j, testout.New(t.TempDir()))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, p.Turns(), minTurns, "turns taken")
	assert.Zero(t, p.Held(), "turns not ended")

	refusing := pacetest.Refusing(p.Turns() / 2)
	_, err = raster.New(raster.Options{TempDir: t.TempDir()}).Export(refusing.Context(t.Context()), j, testout.New(t.TempDir()))
	assert.ErrorIs(t, err, pacetest.ErrRefused)
	assert.Zero(t, refusing.Held(), "turns not ended after the refusal")
}

// TestCopyTakesTurns: the copy of a GeoPackage's tiles takes a turn per
// run of rows between progress reports, and the thumbnails one per tile
// drawn and per thumbnail encoded.
func TestCopyTakesTurns(t *testing.T) {
	rec := fixture(t)
	// The thumbnails' tiles, three thumbnails, a run of the copy.
	checkPaced(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.1, 34.9, 31.9))}), 5)
}

// TestRenderingTakesTurns: rendering GeoTIFF imagery takes a turn per
// tile rendered.
func TestRenderingTakesTurns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "imagery.tif")
	sparseRGB(t, path, 1<<12, 1e-4)
	rec, err := raster.Inspect(t.Context(), catalog.Source{Path: path})
	require.NoError(t, err)
	rec.ID, rec.Location = recordID, t.TempDir()
	checkPaced(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.9, 34.15, 31.95)),
		Parameters: map[string]any{"maxZoom": float64(13)}}), 10)
}
