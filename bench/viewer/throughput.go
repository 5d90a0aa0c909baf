package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// throughput sends GET u with Accept-Encoding gzip and br from concurrency
// goroutines for d over kept-alive loopback connections, reading every
// body to its end, and returns the completed requests and their rate.
func throughput(ctx context.Context, u string, concurrency int, d time.Duration) (int64, float64, error) {
	tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: concurrency, MaxConnsPerHost: concurrency}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()

	var done atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if err := getOnce(ctx, c, u); err != nil {
					if ctx.Err() == nil {
						once.Do(func() { firstErr = err })
					}
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if firstErr != nil {
		return 0, 0, firstErr
	}
	return done.Load(), float64(done.Load()) / elapsed.Seconds(), nil
}

func getOnce(ctx context.Context, c *http.Client, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	req.Header.Set("Accept-Encoding", acceptEncoding)
	res, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d", u, res.StatusCode)
	}
	if _, err := discard(res.Body); err != nil {
		return fmt.Errorf("GET %s: reading the body: %w", u, err)
	}
	return nil
}
