package dem

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// A warped export whose rows and source rows do not fit a quarter of the
// memory budget is refused at the estimate with a validation error on the
// ROI, before anything is allocated; the same export fits the default
// budget.
func TestWarpWithinMemoryBudget(t *testing.T) {
	c := warpCase{epsg: 32636, west: 33.2, north: 31.6, typ: "Float32", nodata: "-9999", resampling: Bilinear}
	src := projectedSource(t, c)
	rec, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	rec.ID, rec.Location = demoID, t.TempDir()
	j := job(t, rec, nil)

	_, err = New(Options{MemoryBudget: 1 << 20}).Estimate(context.Background(), j)
	var ve *exporttask.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, "/ROI", ve.Problems[0].Pointer)
	assert.Contains(t, ve.Problems[0].Message, "too wide to warp within an export's memory budget of 1 MB")

	e := New(Options{TempDir: t.TempDir()})
	p, err := e.plan(j, t.TempDir())
	require.NoError(t, err)
	assert.LessOrEqual(t, p.warp.memory+p.read.Memory(), int64(DefaultMemoryBudget)/2, "the warp and the reader within their shares")
	assert.Less(t, p.warp.maxRows, p.win.height, "the source rows held are fewer than the window's")
	p.close()
	_, err = e.Export(context.Background(), j, testout.New(t.TempDir()))
	require.NoError(t, err)
}

// A block of warped rows lies within one row of GDAL's chunks, whose
// kernels it uses.
func TestWarpBlocksWithinGDALChunks(t *testing.T) {
	assert.Zero(t, gdalChunkHeight%warpBlockRows)
}
