package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// measure runs every phase against a server on db, prints the results
// and returns them.
func measure(ctx context.Context, db string, o options) ([]result, error) {
	tg, err := startServer(ctx, db, o)
	if err != nil {
		return nil, err
	}
	name := "sqlite"
	switch {
	case strings.Contains(db, "://"):
		name = "postgres"
	case strings.Contains(db, "synchronous(NORMAL)"):
		name = "sqlite-normal"
	}
	var (
		mu  sync.Mutex
		ids []int64
	)
	bodies, err := newCreateBodies(newRunID())
	if err != nil {
		return nil, errors.Join(err, tg.stop())
	}
	create := func(ctx context.Context, c *conn, n int) error {
		resp, err := c.call(ctx, http.MethodPost, "/export-tasks", bodies.body(n), http.StatusCreated)
		if err != nil {
			return err
		}
		id, err := taskIDOf(resp)
		if err != nil {
			return fmt.Errorf("POST /export-tasks: %w", err)
		}
		mu.Lock()
		ids = append(ids, id)
		mu.Unlock()
		return nil
	}
	get := func(ctx context.Context, c *conn, _ int) error {
		mu.Lock()
		id := ids[rand.IntN(len(ids))]
		mu.Unlock()
		path := "/export-tasks/" + strconv.FormatInt(id, 10)
		resp, err := c.call(ctx, http.MethodGet, path, nil, http.StatusOK)
		if err != nil {
			return err
		}
		got, err := taskIDOf(resp)
		if err != nil {
			return fmt.Errorf("GET %s: %w", path, err)
		}
		if got != id {
			return fmt.Errorf("GET task %d returned task %d", id, got)
		}
		return nil
	}
	list := func(ctx context.Context, c *conn, _ int) error {
		resp, err := c.call(ctx, http.MethodGet, "/export-tasks?limit=10", nil, http.StatusOK)
		if err != nil {
			return err
		}
		var ts []taskID
		if err := json.Unmarshal(resp, &ts); err != nil {
			return fmt.Errorf("GET /export-tasks: decoding the page: %w", err)
		}
		if len(ts) != 10 {
			return fmt.Errorf("a page of %d tasks, want 10", len(ts))
		}
		return nil
	}

	results := []result{phase(ctx, tg.addr, name, "create", o, create)}
	if len(ids) == 0 {
		return nil, errors.Join(fmt.Errorf("%s: no task was created: %s", name, results[0].firstErr), tg.stop())
	}
	if !o.createsOnly {
		results = append(results, phase(ctx, tg.addr, name, "get", o, get), phase(ctx, tg.addr, name, "list", o, list))
	}
	if err := tg.stop(); err != nil {
		return nil, fmt.Errorf("stopping the %s server: %w", name, err)
	}
	for _, r := range results {
		fmt.Println(r)
	}
	return results, nil
}

// phase calls op from o.concurrency goroutines, each with a connection of
// its own to the server at addr, until o.count calls were made or
// o.duration passed, and measures each call.
func phase(ctx context.Context, addr, store, name string, o options, op func(context.Context, *conn, int) error) result {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var (
		next     atomic.Int64
		errs     atomic.Int64
		firstErr atomic.Value
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		errs.Add(1)
		firstErr.CompareAndSwap(nil, err.Error())
	}
	lat := make([][]time.Duration, o.concurrency)
	start := time.Now()
	for w := range o.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c *conn
			defer func() {
				if c != nil {
					c.Close()
				}
			}()
			for ctx.Err() == nil {
				n := int(next.Add(1))
				if n > o.count {
					return
				}
				if c == nil {
					var err error
					if c, err = dial(ctx, addr); err != nil {
						if ctx.Err() == nil {
							fail(err)
						}
						continue
					}
				}
				t0 := time.Now()
				err := op(ctx, c, n)
				if ctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded) {
					// Cut short by the time bound (the connection's
					// deadline is the phase's): not counted.
					return
				}
				lat[w] = append(lat[w], time.Since(t0))
				if err != nil {
					fail(err)
					if c.broken {
						c.Close()
						c = nil
					}
				}
			}
		}()
	}
	wg.Wait()
	r := summarize(store, name, lat, time.Since(start))
	r.errors = errs.Load()
	if e, ok := firstErr.Load().(string); ok {
		r.firstErr = e
	}
	return r
}

// taskID is the part of a task the load program checks. Decoding only it
// keeps the load generator's CPU share, on the same machine as the server,
// small.
type taskID struct {
	ID int64 `json:"id"`
}

// createBodies are the JSON bodies of the load's creates, encoded ahead
// so that the load generator spends its CPU on sending them: the n-th
// body is createRequest(run, n) as json.Marshal encodes it. The requests
// differ in their catalog record id and in one of polygons distinct
// polygons; the bodies are built from the polygon's encoding, split where
// the record id goes.
type createBodies struct {
	run   uint32
	parts [polygons][2][]byte // before and after the record id
}

// polygons is how many distinct polygons createRequest draws.
const polygons = 1000

// recordMark stands for the record id in the bodies encoded ahead.
const recordMark = "RECORD-ID-GOES-HERE"

func newCreateBodies(run uint32) (*createBodies, error) {
	b := &createBodies{run: run}
	for k := range polygons {
		r := createRequest(run, k)
		r.CatalogRecordID = recordMark
		enc, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("encoding a create: %w", err)
		}
		before, after, ok := bytes.Cut(enc, []byte(recordMark))
		if !ok {
			return nil, errors.New("encoding a create: the record id is not in the body")
		}
		b.parts[k] = [2][]byte{before, after}
	}
	return b, nil
}

// body returns the n-th create's body.
func (b *createBodies) body(n int) []byte {
	p := b.parts[n%polygons]
	out := make([]byte, 0, len(p[0])+len(p[1])+36)
	out = append(out, p[0]...)
	out = appendRecordID(out, b.run, n)
	return append(out, p[1]...)
}

// recordID is the catalog record id of the n-th create of run.
func recordID(run uint32, n int) string { return string(appendRecordID(nil, run, n)) }

// appendRecordID appends recordID(run, n): a UUID made of run and n.
func appendRecordID(b []byte, run uint32, n int) []byte {
	return fmt.Appendf(b, "%08x-0000-4000-8000-%012d", run, n)
}

// newRunID makes this run's catalog record ids differ from a previous
// run's on the same database, so that creates are never duplicates.
func newRunID() uint32 { return rand.Uint32() }

// createRequest is a distinct, valid request: a RASTER export of a small
// polygon, with one webhook subscription.
func createRequest(run uint32, n int) exporttask.CreateRequest {
	x := 34.0 + float64(n%polygons)*0.001
	return exporttask.CreateRequest{
		CatalogRecordID: recordID(run, n),
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     exporttask.CRS4326,
		ROI: &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature, Properties: map[string]any{},
			Geometry: exporttask.NewPolygon([]exporttask.Position{
				{x, 31.9}, {x + 0.01, 31.9}, {x + 0.01, 31.91}, {x, 31.91}, {x, 31.9},
			}),
		}}},
		Webhook: []exporttask.Webhook{{URL: "https://hooks.example.com/load",
			Events: []exporttask.Event{exporttask.EventCompleted}}},
	}
}
