package export_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/clock"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// timedEngine estimates est seconds for a job whose ROI is the whole
// record (1 s for any other) and takes took on its clock to export;
// fail makes an export fail.
type timedEngine struct {
	clk  *clock.Manual
	est  int64
	took time.Duration
	fail bool
}

func (e *timedEngine) Estimate(_ context.Context, j export.Job) (export.Estimate, error) {
	if j.Request().ROI != nil {
		return export.Estimate{Size: 1, Time: 1}, nil
	}
	return export.Estimate{Size: 1, Time: e.est}, nil
}

func (e *timedEngine) Export(context.Context, export.Job, export.Output) ([]exporttask.Artifact, error) {
	e.clk.Advance(e.took)
	if e.fail {
		return nil, errors.New("failed")
	}
	return nil, nil
}

// TestEstimatesFollowTheExportsRealTime: once exports of a domain have
// taken three times their estimates, the domain's estimates are three
// times as long; the median of the recent exports counts, so one slow
// export among fast ones changes little; a failed export, an estimate of
// 1 s (a small export, whatever the load) and the other domains are left
// alone.
func TestEstimatesFollowTheExportsRealTime(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	ras := &timedEngine{clk: clk, est: 4, took: 12 * time.Second}
	dem := &timedEngine{clk: clk, est: 5, took: 5 * time.Second}
	x, err := export.New(mapCatalog{
		rasterID: {ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32), MaxZoom: 5},
		demID:    {ID: demID, Domain: exporttask.DomainDEM, Footprint: square(34, 31, 35, 32), Resolution: 0.01},
	}, map[exporttask.Domain]export.Engine{exporttask.DomainRaster: ras, exporttask.DomainDEM: dem}, export.WithClock(clk))
	require.NoError(t, err)
	whole := exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainRaster}
	small := exporttask.CreateRequest{CatalogRecordID: rasterID, Domain: exporttask.DomainRaster, ROI: roi(square(34.1, 31.1, 34.2, 31.2))}
	demWhole := exporttask.CreateRequest{CatalogRecordID: demID, Domain: exporttask.DomainDEM}
	estimate := func(r exporttask.CreateRequest) int64 {
		t.Helper()
		est, err := x.Estimate(t.Context(), r)
		require.NoError(t, err)
		return est.Time
	}
	run := func(r exporttask.CreateRequest) {
		t.Helper()
		// The task as a create stores it: with the estimate of the moment.
		_, err := x.Export(t.Context(), exporttask.Task{CreateRequest: r, EstimatedTime: estimate(r)}, nil)
		require.NoError(t, err)
	}

	assert.Equal(t, int64(4), estimate(whole), "before any export: the engine's estimate")
	run(whole)
	assert.Equal(t, int64(12), estimate(whole), "after an export that took 3 times its estimate")
	assert.Equal(t, int64(1), estimate(small), "an estimate of 1 s is not scaled")
	assert.Equal(t, int64(5), estimate(demWhole), "another domain")

	ras.fail, ras.took = true, 400*time.Second
	_, err = x.Export(t.Context(), exporttask.Task{CreateRequest: whole, EstimatedTime: estimate(whole)}, nil)
	require.Error(t, err)
	assert.Equal(t, int64(12), estimate(whole), "a failed export is not learned from")

	ras.fail, ras.took = false, 4*time.Second
	run(whole)
	run(whole) // ratios 3, 1, 1: median 1
	assert.Equal(t, int64(4), estimate(whole), "the median of the recent exports")
	ras.took = 400 * time.Second
	run(whole) // ratios 3, 1, 1, 100: median 2
	assert.Equal(t, int64(8), estimate(whole), "one slow export among fast ones")
	for range 8 {
		run(whole)
	}
	assert.Equal(t, int64(4*32), estimate(whole), "the factor is bounded")

	dem.took = 100 * time.Millisecond
	for range 8 {
		run(demWhole)
	}
	assert.Equal(t, int64(2), estimate(demWhole), "5 s at a quarter, rounded up")
}
