package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
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
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns: o.concurrency, MaxIdleConnsPerHost: o.concurrency, IdleConnTimeout: time.Minute,
	}}
	var (
		mu  sync.Mutex
		ids []int64
	)
	run := newRunID()
	create := func(ctx context.Context, n int) error {
		body, err := json.Marshal(createRequest(run, n))
		if err != nil {
			return err
		}
		req, err := newRequest(ctx, http.MethodPost, tg.url+"/export-tasks", body)
		if err != nil {
			return err
		}
		var t taskID
		if err := send(client, req, http.StatusCreated, &t); err != nil {
			return err
		}
		mu.Lock()
		ids = append(ids, t.ID)
		mu.Unlock()
		return nil
	}
	get := func(ctx context.Context, _ int) error {
		mu.Lock()
		id := ids[rand.IntN(len(ids))]
		mu.Unlock()
		req, err := newRequest(ctx, http.MethodGet, tg.url+"/export-tasks/"+strconv.FormatInt(id, 10), nil)
		if err != nil {
			return err
		}
		var t taskID
		if err := send(client, req, http.StatusOK, &t); err != nil {
			return err
		}
		if t.ID != id {
			return fmt.Errorf("GET task %d returned task %d", id, t.ID)
		}
		return nil
	}
	list := func(ctx context.Context, _ int) error {
		req, err := newRequest(ctx, http.MethodGet, tg.url+"/export-tasks?limit=10", nil)
		if err != nil {
			return err
		}
		var ts []taskID
		if err := send(client, req, http.StatusOK, &ts); err != nil {
			return err
		}
		if len(ts) != 10 {
			return fmt.Errorf("a page of %d tasks, want 10", len(ts))
		}
		return nil
	}

	results := []result{phase(ctx, name, "create", o, create)}
	if len(ids) == 0 {
		return nil, errors.Join(fmt.Errorf("%s: no task was created: %s", name, results[0].firstErr), tg.stop())
	}
	results = append(results, phase(ctx, name, "get", o, get), phase(ctx, name, "list", o, list))
	if err := tg.stop(); err != nil {
		return nil, fmt.Errorf("stopping the %s server: %w", name, err)
	}
	for _, r := range results {
		fmt.Println(r)
	}
	return results, nil
}

// phase calls op from o.concurrency goroutines until o.count calls were
// made or o.duration passed, and measures each call.
func phase(ctx context.Context, store, name string, o options, op func(context.Context, int) error) result {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var (
		next     atomic.Int64
		errs     atomic.Int64
		firstErr atomic.Value
		wg       sync.WaitGroup
	)
	lat := make([][]time.Duration, o.concurrency)
	start := time.Now()
	for w := range o.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				n := int(next.Add(1))
				if n > o.count {
					return
				}
				t0 := time.Now()
				err := op(ctx, n)
				if ctx.Err() != nil {
					return // cut short by the time bound: not counted
				}
				lat[w] = append(lat[w], time.Since(t0))
				if err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
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

func newRequest(ctx context.Context, method, url string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("building %s %s: %w", method, url, err)
	}
	req.Header.Set("X-Api-Key", benchKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// send makes the request and decodes a response of status want into v.
func send(c *http.Client, req *http.Request, want int, v any) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the response: %w", req.Method, req.URL.Path, err)
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d: %s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s %s: decoding the response: %w", req.Method, req.URL.Path, err)
	}
	return nil
}

// taskID is the part of a task the load program checks. Decoding only it
// keeps the load generator's CPU share, on the same machine as the server,
// small.
type taskID struct {
	ID int64 `json:"id"`
}

// newRunID makes this run's catalog record ids differ from a previous
// run's on the same database, so that creates are never duplicates.
func newRunID() uint32 { return rand.Uint32() }

// createRequest is a distinct, valid request: a RASTER export of a small
// polygon, with one webhook subscription.
func createRequest(run uint32, n int) exporttask.CreateRequest {
	x := 34.0 + float64(n%1000)*0.001
	return exporttask.CreateRequest{
		CatalogRecordID: fmt.Sprintf("%08x-0000-4000-8000-%012d", run, n),
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
