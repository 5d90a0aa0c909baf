package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/openapi-viewer/viewer/bench/internal/procstat"
)

// result is one contender's rounds.
type result struct {
	times []time.Duration
	rss   []int64         // peak RssAnon of each round, bytes
	cpu   []time.Duration // user and system CPU time of each round
	size  int64           // the size of the file it wrote
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
			d, cpu, rss, err := runSampled(ctx, c, dir)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			size, err := largestFile(dir)
			if err != nil {
				return nil, err
			}
			if err := os.RemoveAll(dir); err != nil {
				return nil, err
			}
			x := res[c.name]
			x.times = append(x.times, d)
			x.rss = append(x.rss, rss)
			x.cpu = append(x.cpu, cpu)
			x.size = size
			fmt.Fprintf(os.Stderr, "round %d: %-13s %7v  CPU %7v  peak RssAnon %4.0f MB\n", r+1, c.name,
				d.Round(time.Millisecond), cpu.Round(time.Millisecond), mb(rss))
		}
	}
	return res, nil
}

// sampleEvery is how often a child's RssAnon is read.
const sampleEvery = 20 * time.Millisecond

// runSampled runs the contender's command into dir and returns how long
// it took, the CPU time it used (user and system) and the largest RssAnon
// sampled from /proc while it ran.
func runSampled(ctx context.Context, c contender, dir string) (time.Duration, time.Duration, int64, error) {
	r, err := procstat.Run(ctx, c.cmd(dir), sampleEvery)
	if err != nil {
		return 0, 0, 0, err
	}
	return r.Wall, r.CPU, r.PeakRssAnon, nil
}

// largestFile is the size of the largest file under dir: the copy.
func largestFile(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n = max(n, info.Size())
		return nil
	})
	return n, err
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// report prints each contender's median time, the export's speed against
// it, and its peak RssAnon.
func report(res map[string]*result, cs []contender, tiles, srcBytes int64) {
	exp := median(res["export"].times)
	for _, c := range cs {
		r := res[c.name]
		m := median(r.times)
		fmt.Printf("%-13s median %7v  %7.0f tiles/s  %6.1f MB/s  export speed / this %.2f×  CPU %7v  peak RssAnon %4.0f MB (max %4.0f)  file %6.1f MB  rounds %v\n",
			c.name, m.Round(time.Millisecond), float64(tiles)/m.Seconds(), mb(srcBytes)/m.Seconds(),
			m.Seconds()/exp.Seconds(), median(r.cpu).Round(time.Millisecond), mb(median(r.rss)), mb(slices.Max(r.rss)), mb(r.size), roundTimes(r.times))
	}
}

func roundTimes(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}
