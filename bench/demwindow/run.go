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
	wall   time.Duration
	maxRSS int64 // bytes
}

func run(src string, rounds int, cpuprofile string) error {
	start := time.Now()
	if err := buildSource(src); err != nil {
		return fmt.Errorf("building %s: %w", src, err)
	}
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	fmt.Printf("demwindow: source %s, %d×%d Int16 COG, %.1f MB (ready in %v); GOMAXPROCS=%d\n",
		src, srcSize, srcSize, float64(st.Size())/1e6, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0))

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

	// A box a third of a pixel inside the window's first column and row:
	// gdal_translate and the exporter both cut columns 5100..6123, rows
	// 7300..8323.
	c := childJob{Record: rec,
		West:  srcWest + (windowCol+0.3)*srcRes,
		North: srcNorth - (windowRow+0.3)*srcRes,
	}
	c.East, c.South = c.West+windowSize*srcRes, c.North-windowSize*srcRes
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
				t0 := time.Now()
				out, err := cmd.Output()
				wall := time.Since(t0)
				if err != nil {
					return fmt.Errorf("export: %w", err)
				}
				var res childResult
				if err := json.Unmarshal(out, &res); err != nil {
					return fmt.Errorf("export output %q: %w", out, err)
				}
				ours = append(ours, sample{wall, maxRSS(cmd)})
				read = res.BytesRead
				if r == 0 {
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
				if err := cmd.Run(); err != nil {
					return fmt.Errorf("gdal_translate: %w", err)
				}
				gdal = append(gdal, sample{time.Since(t0), maxRSS(cmd)})
			}
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
		}
	}
	mo, mg := median(ours), median(gdal)
	fmt.Printf("export          median %8v  peak RSS %5.1f MB  rounds %v\n", mo.wall.Round(time.Millisecond), float64(mo.maxRSS)/1e6, walls(ours))
	fmt.Printf("gdal_translate  median %8v  peak RSS %5.1f MB  rounds %v\n", mg.wall.Round(time.Millisecond), float64(mg.maxRSS)/1e6, walls(gdal))
	fmt.Printf("speed: export / gdal_translate = %.2f× (goal ≥ 0.5×); export peak RSS %.1f MB (goal < 100 MB)\n",
		mg.wall.Seconds()/mo.wall.Seconds(), float64(slices.MaxFunc(ours, func(a, b sample) int { return int(a.maxRSS - b.maxRSS) }).maxRSS)/1e6)
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
	return sample{wall: w[len(w)/2].wall, maxRSS: r[len(r)/2].maxRSS}
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
	x, err := os.ReadFile(a)
	if err != nil {
		return err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return err
	}
	if !bytes.Equal(x, y) {
		return fmt.Errorf("the export (%d bytes of samples) differs from GDAL's cut (%d bytes)", len(x), len(y))
	}
	fmt.Printf("demwindow: the export equals gdal_translate's cut: %d samples\n", len(x)/2)
	return nil
}
