package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
)

// childJob is what the parent hands the child: the record and the window's
// box in degrees.
type childJob struct {
	Record                   catalog.Record
	West, South, East, North float64
	Dir                      string
}

// childResult is what the child prints.
type childResult struct {
	Seconds   float64 // Export's own duration
	BytesRead int64   // bytes read from the source file
	Model     string  // the exported GeoTIFF
}

// job is the export request over the box.
func (c childJob) job() (export.Job, error) {
	roi := &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature, Properties: map[string]any{},
		Geometry: exporttask.NewPolygon([]exporttask.Position{
			{c.West, c.South}, {c.East, c.South}, {c.East, c.North}, {c.West, c.North}, {c.West, c.South}}),
	}}}
	return export.NewJob(c.Record, exporttask.CreateRequest{CatalogRecordID: c.Record.ID, Domain: exporttask.DomainDEM, ROI: roi})
}

// countingFile counts the bytes read through ReadAt.
type countingFile struct {
	*os.File
	n *int64
}

func (f countingFile) ReadAt(b []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(b, off)
	*f.n += int64(n)
	return n, err
}

// runChild exports the job and prints a childResult as JSON.
func runChild(arg string) error {
	var c childJob
	if err := json.Unmarshal([]byte(arg), &c); err != nil {
		return err
	}
	j, err := c.job()
	if err != nil {
		return err
	}
	var read int64
	e := dem.New(dem.Options{TempDir: c.Dir, Open: func(p string) (dem.SourceFile, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		return countingFile{File: f, n: &read}, nil
	}})
	start := time.Now()
	arts, err := e.Export(context.Background(), j, &dirOutput{dir: c.Dir})
	if err != nil {
		return err
	}
	res := childResult{Seconds: time.Since(start).Seconds(), BytesRead: read, Model: filepath.Join(c.Dir, arts[0].Name)}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// sample is one round of one contender.
type sample struct {
	wall    time.Duration
	maxRSS  int64 // bytes
	rssAnon int64 // bytes: the peak of RssAnon sampled every 10 ms
}

// benchCase is a source and the window of it to export.
type benchCase struct {
	srcW, srcH  int // the source's size
	col, row    int // the window's top-left pixel
	winW, winH  int
	srcPath     string // the default -src
	exactExtent bool   // the box is the window's edges, not a third of a pixel inside
	speedGoal   float64
	rssAnonGoal float64 // MB
	description string
}

// cases are the benchmarks -case chooses from.
var cases = map[string]benchCase{
	// 3×3 source tiles met: columns 5100..6123, rows 7300..8323.
	"window": {srcW: 20000, srcH: 20000, col: 5100, row: 7300, winW: 1024, winH: 1024,
		srcPath: "/tmp/demwindow-20000-int16-cog.tif", speedGoal: 0.5, rssAnonGoal: 100,
		description: "a 1,024² window"},
	"window10k": {srcW: 40000, srcH: 20000, col: 5100, row: 7300, winW: 10000, winH: 10000,
		srcPath: "/tmp/demwindow-40000x20000-int16-cog.tif", speedGoal: 1, rssAnonGoal: 300,
		description: "a 10,000² window"},
	"whole": {srcW: 40000, srcH: 20000, col: 0, row: 0, winW: 40000, winH: 20000,
		srcPath: "/tmp/demwindow-40000x20000-int16-cog.tif", exactExtent: true, speedGoal: 1, rssAnonGoal: 300,
		description: "the whole extent"},
}

func run(bc benchCase, src string, rounds int, cpuprofile string, check bool) error {
	start := time.Now()
	if err := buildSource(src, bc.srcW, bc.srcH); err != nil {
		return fmt.Errorf("building %s: %w", src, err)
	}
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	fmt.Printf("demwindow: source %s, %d×%d Int16 COG, %.1f MB (ready in %v); GOMAXPROCS=%d; exporting %s (%d×%d)\n",
		src, bc.srcW, bc.srcH, float64(st.Size())/1e6, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0),
		bc.description, bc.winW, bc.winH)

	ctx := context.Background()
	start = time.Now()
	rec, err := dem.Inspect(ctx, catalog.Source{Path: src})
	if err != nil {
		return err
	}
	fmt.Printf("demwindow: dem.Inspect in %v\n", time.Since(start).Round(time.Millisecond))
	work, err := os.MkdirTemp("", "demwindow-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	rec.ID, rec.Title, rec.Location = "5e0c1d2a-7b3f-4c8e-9a61-0d2f3b4c5e6f", "benchmark DEM", work

	// A box a third of a pixel inside the window's first column and row
	// (or on the source's edges for the whole extent): gdal_translate and
	// the exporter both cut the window's columns and rows.
	inset := 0.3
	if bc.exactExtent {
		inset = 0
	}
	c := childJob{Record: rec,
		West:  srcWest + (float64(bc.col)+inset)*srcRes,
		North: srcNorth - (float64(bc.row)+inset)*srcRes,
	}
	c.East, c.South = c.West+float64(bc.winW)*srcRes, c.North-float64(bc.winH)*srcRes
	j, err := c.job()
	if err != nil {
		return err
	}
	tileBytes, err := dem.New(dem.Options{}).SourceBytes(ctx, j)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}

	var ours, gdal []sample
	var read int64
	for r := range rounds {
		for k := range 2 {
			dir, err := os.MkdirTemp(work, "round-")
			if err != nil {
				return err
			}
			if (r+k)%2 == 0 {
				c.Dir = dir
				arg, _ := json.Marshal(c)
				args := []string{"-child", string(arg)}
				if cpuprofile != "" {
					args = append(args, "-cpuprofile", cpuprofile)
				}
				cmd := exec.Command(self, args...)
				cmd.Stderr = os.Stderr
				var stdout bytes.Buffer
				cmd.Stdout = &stdout
				t0 := time.Now()
				anon, err := runSampled(cmd)
				wall := time.Since(t0)
				if err != nil {
					return fmt.Errorf("export: %w", err)
				}
				out := stdout.Bytes()
				var res childResult
				if err := json.Unmarshal(out, &res); err != nil {
					return fmt.Errorf("export output %q: %w", out, err)
				}
				ours = append(ours, sample{wall, maxRSS(cmd), anon})
				read = res.BytesRead
				fmt.Printf("round %d: export %v, peak RssAnon %.1f MB\n", r+1, wall.Round(time.Millisecond), float64(anon)/1e6)
				if r == 0 && check {
					if err := compare(res.Model, src, c, work); err != nil {
						return err
					}
				}
			} else {
				cut := filepath.Join(dir, "gdal.tif")
				cmd := exec.Command("gdal_translate", "-q", "-projwin", fmt.Sprint(c.West), fmt.Sprint(c.North),
					fmt.Sprint(c.East), fmt.Sprint(c.South), "-of", "COG", "-co", "COMPRESS=DEFLATE", src, cut)
				cmd.Stderr = os.Stderr
				t0 := time.Now()
				anon, err := runSampled(cmd)
				if err != nil {
					return fmt.Errorf("gdal_translate: %w", err)
				}
				gdal = append(gdal, sample{time.Since(t0), maxRSS(cmd), anon})
				fmt.Printf("round %d: gdal_translate %v, peak RssAnon %.1f MB\n", r+1, gdal[len(gdal)-1].wall.Round(time.Millisecond), float64(anon)/1e6)
			}
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
		}
	}
	mo, mg := median(ours), median(gdal)
	fmt.Printf("export          median %8v  peak RSS %6.1f MB  peak RssAnon %6.1f MB  rounds %v\n",
		mo.wall.Round(time.Millisecond), float64(mo.maxRSS)/1e6, float64(mo.rssAnon)/1e6, walls(ours))
	fmt.Printf("gdal_translate  median %8v  peak RSS %6.1f MB  peak RssAnon %6.1f MB  rounds %v\n",
		mg.wall.Round(time.Millisecond), float64(mg.maxRSS)/1e6, float64(mg.rssAnon)/1e6, walls(gdal))
	fmt.Printf("speed: export / gdal_translate = %.2f× (goal ≥ %g×); export's highest peak RssAnon %.1f MB (goal ≤ %g MB)\n",
		mg.wall.Seconds()/mo.wall.Seconds(), bc.speedGoal,
		float64(slices.MaxFunc(ours, func(a, b sample) int { return int(a.rssAnon - b.rssAnon) }).rssAnon)/1e6, bc.rssAnonGoal)
	fmt.Printf("read: %d bytes from the source; the tiles the window meets hold %d bytes: %.2f× (goal ≤ 2×)\n",
		read, tileBytes, float64(read)/float64(tileBytes))
	return nil
}

// maxRSS returns a finished command's peak resident set size in bytes.
func maxRSS(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // kilobytes on Linux
	}
	return 0
}

// median returns the sample of median wall time, with the median RSS.
func median(s []sample) sample {
	w := slices.Clone(s)
	slices.SortFunc(w, func(a, b sample) int { return int(a.wall - b.wall) })
	r := slices.Clone(s)
	slices.SortFunc(r, func(a, b sample) int { return int(a.maxRSS - b.maxRSS) })
	a := slices.Clone(s)
	slices.SortFunc(a, func(a, b sample) int { return int(a.rssAnon - b.rssAnon) })
	return sample{wall: w[len(w)/2].wall, maxRSS: r[len(r)/2].maxRSS, rssAnon: a[len(a)/2].rssAnon}
}

func walls(s []sample) []time.Duration {
	out := make([]time.Duration, len(s))
	for i, x := range s {
		out[i] = x.wall.Round(time.Millisecond)
	}
	return out
}

// compare checks the export against gdal_translate's cut of the same box,
// both read by GDAL as raw samples.
func compare(model, src string, c childJob, work string) error {
	a, b := filepath.Join(work, "ours.img"), filepath.Join(work, "gdal.img")
	if out, err := exec.Command("gdal_translate", "-q", "-of", "ENVI", model, a).CombinedOutput(); err != nil {
		return fmt.Errorf("gdal_translate: %v: %s", err, out)
	}
	if out, err := exec.Command("gdal_translate", "-q", "-of", "ENVI", "-projwin", fmt.Sprint(c.West), fmt.Sprint(c.North),
		fmt.Sprint(c.East), fmt.Sprint(c.South), src, b).CombinedOutput(); err != nil {
		return fmt.Errorf("gdal_translate: %v: %s", err, out)
	}
	n, err := sameFiles(a, b)
	if err != nil {
		return err
	}
	fmt.Printf("demwindow: the export equals gdal_translate's cut: %d samples\n", n/2)
	return nil
}
