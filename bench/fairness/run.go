package main

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// bench is the benchmark's setup.
type bench struct {
	src     string
	small   int
	workers int
	timeout time.Duration
}

// config is one configuration of the Runner.
type config struct {
	name         string
	smallWorkers int
	largeTurns   int
}

// oneRecord is a catalog of one record.
type oneRecord struct{ rec catalog.Record }

func (c oneRecord) Record(_ context.Context, id string) (catalog.Record, error) {
	if id != c.rec.ID {
		return catalog.Record{}, fmt.Errorf("record %s: %w", id, catalog.ErrNotFound)
	}
	return c.rec, nil
}

// round runs one round in configuration c and returns the latencies of the
// small exports that finished, and a line about the estimates.
func (b bench) round(c config) ([]time.Duration, string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	work, err := os.MkdirTemp("", "fairness-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(work)
	rec, err := dem.Inspect(ctx, catalog.Source{Path: b.src})
	if err != nil {
		return nil, "", err
	}
	rec.ID, rec.Title, rec.Location = "3f6b2a10-9c4d-4e7a-8b21-5d0e6f7a8b9c", "fairness DEM", work
	west, south, east, north := bounds(rec.Footprint)
	st, err := sqlite.Open(ctx, filepath.Join(work, "tasks.db"))
	if err != nil {
		return nil, "", err
	}
	defer st.Close()
	files, err := filestore.Open(ctx, filepath.Join(work, "artifacts"))
	if err != nil {
		return nil, "", err
	}
	scratch := filepath.Join(work, "scratch")
	if err := os.Mkdir(scratch, 0o700); err != nil {
		return nil, "", err
	}
	timed := &timedEngine{Engine: dem.New(dem.Options{}), spans: map[string][2]time.Time{}}
	exp, err := export.New(oneRecord{rec}, map[exporttask.Domain]export.Engine{exporttask.DomainDEM: timed},
		export.WithScratchDir(scratch))
	if err != nil {
		return nil, "", err
	}
	wake := worker.NewWakeup()
	runner, err := worker.NewRunner(worker.RunnerConfig{
		Store: st, Exporter: exp, Artifacts: files, Workers: b.workers, SmallWorkers: c.smallWorkers, LargeTurns: c.largeTurns, Wakeup: wake,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return nil, "", err
	}
	runDone := make(chan error, 1)
	go func() { runDone <- runner.Run(ctx) }()
	defer func() { cancel(); <-runDone }()

	creator := wake.Store(st)
	var large []int64
	var largeEst export.Estimate
	for i := range b.workers {
		// Each a box around the whole record, a different one so that
		// the requests are not one deduplicated task.
		m := 0.01 * float64(i+1)
		roi := box(west-m, south-m, east+m, north+m)
		t, est, err := create(ctx, exp, creator, "big", rec.ID, roi, fmt.Sprintf("whole extent %d", i))
		if err != nil {
			return nil, "", err
		}
		large, largeEst = append(large, t.ID), est
	}
	if err := waitRunning(ctx, st, "big", large); err != nil {
		return nil, "", err
	}
	var small []int64
	var smallEst export.Estimate
	created := map[string]time.Time{}
	for i := range b.small {
		// 0.01° boxes along a diagonal of the record, each at its own place.
		step := min(east-west, north-south) / float64(b.small+2)
		w := west + step*float64(i+1)
		n := north - step*float64(i+1)
		desc := fmt.Sprintf("small export %d", i)
		t, est, err := create(ctx, exp, creator, "small", rec.ID, box(w, n-0.01, w+0.01, n), desc)
		if err != nil {
			return nil, "", err
		}
		created[desc] = t.CreatedAt.Time
		small, smallEst = append(small, t.ID), est
	}
	lat, err := waitFinished(ctx, st, "small", small, b.timeout)
	finished := map[string]time.Time{}
	for _, id := range small {
		if t, gerr := st.Get(ctx, "small", id); gerr == nil && !t.FinishedAt.IsZero() {
			finished[t.Description] = t.FinishedAt.Time
		}
	}
	info := fmt.Sprintf("small exports' phases: %s; estimates: whole extent %.0f MB %d s, small %.0f kB %d s; whole extent at the end: %s",
		timed.phases(created, finished), float64(largeEst.Size)/1e6, largeEst.Time, float64(smallEst.Size)/1e3, smallEst.Time, states(ctx, st, "big", large))
	return lat, info, err
}

// states says the status, progress and attempts of each task of ids.
func states(ctx context.Context, st taskstore.Store, customer string, ids []int64) string {
	var parts []string
	for _, id := range ids {
		t, err := st.Get(ctx, customer, id)
		if err != nil {
			parts = append(parts, err.Error())
			continue
		}
		p := fmt.Sprintf("%s %d%% (attempt %d", t.Status, t.Progress, t.Attempts)
		if !t.FinishedAt.IsZero() {
			p += fmt.Sprintf(", took %v", t.FinishedAt.Sub(t.CreatedAt.Time).Round(100*time.Millisecond))
		}
		if t.ErrorReason != "" {
			p += ", " + t.ErrorReason
		}
		parts = append(parts, p+")")
	}
	return strings.Join(parts, "; ")
}

// create estimates and stores a DEM export of record for customer.
func create(ctx context.Context, exp *export.CatalogExporter, st taskstore.Store, customer, record string,
	roi *exporttask.FeatureCollection, desc string) (exporttask.Task, export.Estimate, error) {
	r := exporttask.CreateRequest{CatalogRecordID: record, Domain: exporttask.DomainDEM, ArtifactCRS: exporttask.CRS4326,
		ROI: roi, Description: desc, Webhook: []exporttask.Webhook{}}
	est, err := exp.Estimate(ctx, r)
	if err != nil {
		return exporttask.Task{}, est, err
	}
	id, err := taskstore.Identify(r, est.SourceVersion)
	if err != nil {
		return exporttask.Task{}, est, err
	}
	t, _, err := st.Create(ctx, taskstore.CreateParams{Customer: customer, Request: r, EstimatedSize: est.Size,
		EstimatedTime: est.Time, Identity: id, Now: time.Now()})
	return t, est, err
}

// bounds returns the bounding box of a footprint.
func bounds(g *exporttask.Geometry) (west, south, east, north float64) {
	west, south, east, north = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, poly := range g.Polygons() {
		for _, ring := range poly {
			for _, p := range ring {
				west, east = min(west, p[0]), max(east, p[0])
				south, north = min(south, p[1]), max(north, p[1])
			}
		}
	}
	return west, south, east, north
}

// box is an ROI of one rectangle.
func box(w, s, e, n float64) *exporttask.FeatureCollection {
	ring := []exporttask.Position{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}}
	return &exporttask.FeatureCollection{Type: "FeatureCollection", Features: []exporttask.Feature{
		{Type: "Feature", Properties: map[string]any{}, Geometry: exporttask.NewPolygon(ring)}}}
}

// waitRunning waits until every task of ids is IN_PROGRESS.
func waitRunning(ctx context.Context, st taskstore.Store, customer string, ids []int64) error {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		running := 0
		for _, id := range ids {
			t, err := st.Get(ctx, customer, id)
			if err != nil {
				return err
			}
			if t.Status == exporttask.StatusInProgress {
				running++
			}
		}
		if running == len(ids) {
			return nil
		}
	}
	return fmt.Errorf("the whole-extent exports did not all start within a minute")
}

// waitFinished waits up to timeout for the tasks ids to end and returns
// the createdAt→finishedAt of those COMPLETED. Another final status is an
// error.
func waitFinished(ctx context.Context, st taskstore.Store, customer string, ids []int64, timeout time.Duration) ([]time.Duration, error) {
	deadline := time.Now().Add(timeout)
	for {
		var lat []time.Duration
		for _, id := range ids {
			t, err := st.Get(ctx, customer, id)
			if err != nil {
				return nil, err
			}
			switch t.Status {
			case exporttask.StatusCompleted:
				lat = append(lat, t.FinishedAt.Sub(t.CreatedAt.Time))
			case exporttask.StatusFailed, exporttask.StatusAborted:
				return nil, fmt.Errorf("small export %d ended %s: %s", id, t.Status, t.ErrorReason)
			}
		}
		if len(lat) == len(ids) || time.Now().After(deadline) {
			return lat, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// summary describes latencies of n exports (those missing did not finish
// in time).
func summary(lat []time.Duration, n int) string {
	if len(lat) == 0 {
		return fmt.Sprintf("none of %d finished in time", n)
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	q := func(p float64) string {
		i := int(p*float64(n)+0.999999) - 1
		if i >= len(s) {
			return "> timeout"
		}
		return s[max(i, 0)].Round(10 * time.Millisecond).String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d finished; p50 %s, p95 %s, p99 %s, max %s", len(s), n, q(0.5), q(0.95), q(0.99), q(1))
	return b.String()
}
