package dem

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/pacetest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// checkPaced exports j with a pacer in its context: the export takes at
// least minTurns turns at CPU work and ends each one; a pacer that
// refuses a turn midway fails the export with its error.
func checkPaced(t *testing.T, j export.Job, minTurns int) {
	t.Helper()
	p := pacetest.New()
	_, err := New(Options{TempDir: t.TempDir()}).Export(p.Context(t.Context()), j, testout.New(t.TempDir()))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, p.Turns(), minTurns, "turns taken")
	assert.Zero(t, p.Held(), "turns not ended")

	refusing := pacetest.Refusing(p.Turns() / 2)
	_, err = New(Options{TempDir: t.TempDir()}).Export(refusing.Context(t.Context()), j, testout.New(t.TempDir()))
	assert.ErrorIs(t, err, pacetest.ErrRefused)
	assert.Zero(t, refusing.Held(), "turns not ended after the refusal")
}

// TestExportTakesTurns: a DEM export takes a turn per source block decoded
// and per tile compressed.
func TestExportTakesTurns(t *testing.T) {
	checkPaced(t, job(t, demoRecord(t, 1.0/3600), nil), 4)
}

// TestWarpTakesTurns: a warped export computes each part of every block
// of rows (its source points, then its pixels) in a turn, and its source
// blocks are decoded in turns too.
func TestWarpTakesTurns(t *testing.T) {
	c := warpCase{epsg: 32636, west: 33.2, north: 31.6, typ: "Float32", nodata: "-9999", resampling: Bilinear}
	src := projectedSource(t, c)
	rec, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	rec.ID, rec.Location = demoID, t.TempDir()
	j := job(t, rec, nil)

	var turns, held atomic.Int64
	turn := func() (func(), error) {
		turns.Add(1)
		held.Add(1)
		return func() { held.Add(-1) }, nil
	}
	p, err := New(Options{TempDir: t.TempDir()}).planWith(j, t.TempDir(), turn)
	require.NoError(t, err)
	defer p.close()
	var inside int64
	rows := p.warp.stream(p, j, &inside, turn).cogRows()
	buf := make([]byte, p.img.Width*p.img.BitsPerSample/8)
	for y := range p.img.Height {
		require.NoError(t, rows(y, buf))
	}
	blocks := (p.img.Height + warpBlockRows - 1) / warpBlockRows
	assert.GreaterOrEqual(t, turns.Load(), int64(2*blocks+1), "turns for %d blocks of rows and the source's blocks", blocks)
	assert.Zero(t, held.Load(), "turns not ended")

	checkPaced(t, j, 2*blocks)
}
