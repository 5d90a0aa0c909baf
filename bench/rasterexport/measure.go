package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// result is one contender's rounds.
type result struct {
	times        []time.Duration
	tiles, bytes int64
}

// measure runs each contender once per round, in turn, each in a fresh
// directory removed afterwards.
func measure(ctx context.Context, work string, cs []contender, rounds int) (map[string]*result, error) {
	res := map[string]*result{}
	for _, c := range cs {
		res[c.name] = &result{}
	}
	for r := range rounds {
		for _, c := range cs {
			dir := filepath.Join(work, fmt.Sprintf("%s-%d", c.name, r))
			if err := os.Mkdir(dir, 0o755); err != nil {
				return nil, err
			}
			start := time.Now()
			tiles, bytes, err := c.run(ctx, dir)
			d := time.Since(start)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			if err := os.RemoveAll(dir); err != nil {
				return nil, err
			}
			x := res[c.name]
			x.times = append(x.times, d)
			x.tiles, x.bytes = tiles, bytes
		}
	}
	return res, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// report prints each contender's median and the export's speed relative
// to the bare copies.
func report(res map[string]*result, cs []contender) {
	exp := median(res["export"].times)
	for _, c := range cs {
		r := res[c.name]
		m := median(r.times)
		fmt.Printf("%-10s %6d tiles %7.1f MB  median %8v  %8.0f tiles/s  %7.1f MB/s  export speed / this %.2f×  rounds %v\n",
			c.name, r.tiles, mb(r.bytes), m.Round(time.Millisecond), float64(r.tiles)/m.Seconds(),
			mb(r.bytes)/m.Seconds(), m.Seconds()/exp.Seconds(), roundTimes(r.times))
	}
}

func roundTimes(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}

// readTileBytes returns the "exporttask:tileBytes" property of an
// export's metadata.json, a STAC Item.
func readTileBytes(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var m struct {
		Properties struct {
			TileBytes int64 `json:"exporttask:tileBytes"`
		} `json:"properties"`
	}
	if json.Unmarshal(b, &m) != nil {
		return 0
	}
	return m.Properties.TileBytes
}
