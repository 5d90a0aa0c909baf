package raster_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// cancellingOutput is a testout.Dir that cancels the export at its first
// progress report with tiles done, and counts the reports after it.
type cancellingOutput struct {
	*testout.Dir
	cancel       context.CancelFunc
	cancelled    atomic.Bool
	at, total    atomic.Int64
	reportsAfter atomic.Int64
}

func (o *cancellingOutput) Progress(done, total int64) error {
	if o.cancelled.Load() {
		o.reportsAfter.Add(1)
	} else if done > 0 && done < total {
		o.at.Store(done)
		o.total.Store(total)
		o.cancelled.Store(true)
		o.cancel()
	}
	return o.Dir.Progress(done, total)
}

// cancelMidway exports j, cancelling it at the first tiles copied: the
// export returns context.Canceled without another progress report (the
// copy and the rendering look at the context at every tile) and leaves
// nothing in the output.
func cancelMidway(t *testing.T, j export.Job) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	dir := t.TempDir()
	out := &cancellingOutput{Dir: testout.New(dir), cancel: cancel}
	_, err := raster.New(raster.Options{TempDir: t.TempDir()}).Export(ctx, j, out)
	require.True(t, out.cancelled.Load(), "the export reported progress midway")
	t.Logf("cancelled at %d of %d tiles", out.at.Load(), out.total.Load())
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, export.IsPermanent(err), "%v", err)
	assert.Zero(t, out.reportsAfter.Load(), "progress reported after the cancel at %d of %d tiles",
		out.at.Load(), out.total.Load())
	assert.Empty(t, dirEntries(t, dir))
}

// TestCancelStopsTheTileCopy cancels the copy of part of a GeoPackage.
func TestCancelStopsTheTileCopy(t *testing.T) {
	rec := fixture(t)
	cancelMidway(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.1, 34.9, 31.9))}))
}

// TestCancelStopsTheRendering cancels the rendering of GeoTIFF imagery.
func TestCancelStopsTheRendering(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.tif")
	sparseRGB(t, path, 1<<16, 1e-5)
	rec, err := raster.Inspect(t.Context(), catalog.Source{Path: path})
	require.NoError(t, err)
	rec.ID, rec.Location = recordID, t.TempDir()
	cancelMidway(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.9, 34.15, 31.95)),
		Parameters: map[string]any{"maxZoom": float64(14)}}))
}

// TestCancelStopsTheDirectoryCopy cancels the copy of the tiles of an XYZ
// directory, read a file at a time.
func TestCancelStopsTheDirectoryCopy(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, raster.TileSize, raster.TileSize))
	for i := range img.Pix {
		img.Pix[i] = uint8(i % 7 * 30)
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	dir := filepath.Join(t.TempDir(), "tiles")
	for z := 5; z <= 8; z++ {
		d := 180 / math.Ldexp(1, z)
		for col := int64((34 + 180) / d); col <= int64((35+180)/d); col++ {
			for row := int64((90 - 32) / d); row <= int64((90-31)/d); row++ {
				p := filepath.Join(dir, fmt.Sprint(z), fmt.Sprint(col), fmt.Sprint(row)+".png")
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, buf.Bytes(), 0o644))
			}
		}
	}
	rec, err := register.Add(t.Context(), t.TempDir(), dir, register.Options{Domain: exporttask.DomainRaster,
		Scheme: register.SchemeXYZ})
	require.NoError(t, err)
	cancelMidway(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.1, 34.9, 31.9))}))
}
