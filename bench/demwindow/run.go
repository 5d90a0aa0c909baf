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
	"strconv"
	"strings"
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
	// epsg is the source's CRS: geographicEPSG, or utmEPSG for the warp
	// case, whose window is col, row, winW, winH of the grid `gdalwarp
	// -t_srs EPSG:4326` suggests for the source, exported with the DEM
	// exporter's default bilinear resampling and measured against
	// `gdalwarp -te … -tr … -r bilinear -et 0 -of COG`.
	epsg int
}

// cases are the benchmarks -case chooses from.
var cases = map[string]benchCase{
	// 3×3 source tiles met: columns 5100..6123, rows 7300..8323.
	"window": {srcW: 20000, srcH: 20000, col: 5100, row: 7300, winW: 1024, winH: 1024,
		srcPath: "/tmp/demwindow-20000-int16-cog.tif", speedGoal: 0.5, rssAnonGoal: 100,
		description: "a 1,024² window", epsg: geographicEPSG},
	"window10k": {srcW: 40000, srcH: 20000, col: 5100, row: 7300, winW: 10000, winH: 10000,
		srcPath: "/tmp/demwindow-40000x20000-int16-cog.tif", speedGoal: 1, rssAnonGoal: 300,
		description: "a 10,000² window", epsg: geographicEPSG},
	"whole": {srcW: 40000, srcH: 20000, col: 0, row: 0, winW: 40000, winH: 20000,
		srcPath: "/tmp/demwindow-40000x20000-int16-cog.tif", exactExtent: true, speedGoal: 1, rssAnonGoal: 300,
		description: "the whole extent", epsg: geographicEPSG},
	// 1,024² of the warped grid near the source's middle.
	"warp": {srcW: 20000, srcH: 20000, col: 9100, row: 9300, winW: 1024, winH: 1024,
		srcPath: "/tmp/demwarp-20000-utm36n-int16-cog.tif", speedGoal: 1, rssAnonGoal: 100,
		description: "a 1,024² window warped from UTM 36N to EPSG:4326", epsg: utmEPSG},
}

func run(bc benchCase, src string, rounds int, cpuprofile string, check bool) error {
	start := time.Now()
	if err := buildSource(src, bc.srcW, bc.srcH, bc.epsg); err != nil {
		return fmt.Errorf("building %s: %w", src, err)
	}
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	fmt.Printf("demwindow: source %s, %d×%d Int16 COG in EPSG:%d, %.1f MB (ready in %v); GOMAXPROCS=%d; exporting %s (%d×%d)\n",
		src, bc.srcW, bc.srcH, bc.epsg, float64(st.Size())/1e6, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0),
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
	west, north, res := srcWest, srcNorth, srcRes
	if bc.epsg != geographicEPSG {
		// The window is on the grid gdalwarp suggests for the whole
		// source, which the exporter uses too.
		if west, north, res, err = warpGrid(src, work); err != nil {
			return err
		}
	}
	c := childJob{Record: rec,
		West:  west + (float64(bc.col)+inset)*res,
		North: north - (float64(bc.row)+inset)*res,
	}
	c.East, c.South = c.West+float64(bc.winW)*res, c.North-float64(bc.winH)*res
	if bc.epsg != geographicEPSG {
		// The exporter snaps the box outward to the grid's pixels: the
		// box ends a third of a pixel inside the window's last column and
		// row.
		c.East, c.South = west+(float64(bc.col+bc.winW)-inset)*res, north-(float64(bc.row+bc.winH)-inset)*res
	}
	gdalArgs := []string{"-q", "-projwin", fmt.Sprint(c.West), fmt.Sprint(c.North), fmt.Sprint(c.East), fmt.Sprint(c.South),
		"-of", "COG", "-co", "COMPRESS=DEFLATE", src}
	gdalTool := "gdal_translate"
	if bc.epsg != geographicEPSG {
		f := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
		w, n := west+float64(bc.col)*res, north-float64(bc.row)*res
		gdalTool = "gdalwarp"
		gdalArgs = []string{"-q", "-t_srs", "EPSG:4326", "-te", f(w), f(n - float64(bc.winH)*res), f(w + float64(bc.winW)*res), f(n),
			"-tr", f(res), f(res), "-r", "bilinear", "-et", "0", "-dstnodata", "-32768", "-of", "COG", "-co", "COMPRESS=DEFLATE", src}
	}
	fmt.Printf("demwindow: GDAL: %s %s OUT.tif\n", gdalTool, strings.Join(gdalArgs, " "))
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
					if err := compare(res.Model, gdalTool, gdalArgs, work); err != nil {
						return err
					}
				}
			} else {
				cut := filepath.Join(dir, "gdal.tif")
				cmd := exec.Command(gdalTool, append(slices.Clone(gdalArgs), cut)...)
				cmd.Stderr = os.Stderr
				t0 := time.Now()
				anon, err := runSampled(cmd)
				if err != nil {
					return fmt.Errorf("%s: %w", gdalTool, err)
				}
				gdal = append(gdal, sample{time.Since(t0), maxRSS(cmd), anon})
				fmt.Printf("round %d: %s %v, peak RssAnon %.1f MB\n", r+1, gdalTool, gdal[len(gdal)-1].wall.Round(time.Millisecond), float64(anon)/1e6)
			}
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
		}
	}
	mo, mg := median(ours), median(gdal)
	fmt.Printf("export          median %8v  peak RSS %6.1f MB  peak RssAnon %6.1f MB  rounds %v\n",
		mo.wall.Round(time.Millisecond), float64(mo.maxRSS)/1e6, float64(mo.rssAnon)/1e6, walls(ours))
	fmt.Printf("%-15s median %8v  peak RSS %6.1f MB  peak RssAnon %6.1f MB  rounds %v\n",
		gdalTool, mg.wall.Round(time.Millisecond), float64(mg.maxRSS)/1e6, float64(mg.rssAnon)/1e6, walls(gdal))
	fmt.Printf("speed: export / %s = %.2f× (goal ≥ %g×); export's highest peak RssAnon %.1f MB (goal ≤ %g MB)\n",
		gdalTool, mg.wall.Seconds()/mo.wall.Seconds(), bc.speedGoal,
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

// compare checks the export against GDAL's output of the same window
// (tool run with args and the output's path), both read by GDAL as raw
// samples.
func compare(model, tool string, args []string, work string) error {
	ref := filepath.Join(work, "gdal-ref.tif")
	if out, err := exec.Command(tool, append(slices.Clone(args), ref)...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", tool, err, out)
	}
	a, b := filepath.Join(work, "ours.img"), filepath.Join(work, "gdal.img")
	for _, p := range [][2]string{{model, a}, {ref, b}} {
		if out, err := exec.Command("gdal_translate", "-q", "-of", "ENVI", p[0], p[1]).CombinedOutput(); err != nil {
			return fmt.Errorf("gdal_translate: %v: %s", err, out)
		}
	}
	n, err := sameFiles(a, b)
	if err != nil {
		d, derr := int16Differences(a, b)
		if derr != nil {
			return derr
		}
		return fmt.Errorf("%w: %s", err, d)
	}
	fmt.Printf("demwindow: the export equals %s's output: %d samples\n", tool, n/2)
	return os.Remove(ref)
}

// warpGrid returns the top-left corner and pixel size of the grid
// `gdalwarp -t_srs EPSG:4326` suggests for src (read from a VRT it writes
// into work).
func warpGrid(src, work string) (west, north, res float64, err error) {
	vrt := filepath.Join(work, "suggested.vrt")
	if out, err := exec.Command("gdalwarp", "-q", "-t_srs", "EPSG:4326", "-of", "VRT", src, vrt).CombinedOutput(); err != nil {
		return 0, 0, 0, fmt.Errorf("gdalwarp: %v: %s", err, out)
	}
	out, err := exec.Command("gdalinfo", "-json", vrt).Output()
	if err != nil {
		return 0, 0, 0, fmt.Errorf("gdalinfo: %w", err)
	}
	var info struct {
		GeoTransform []float64 `json:"geoTransform"`
	}
	if err := json.Unmarshal(out, &info); err != nil || len(info.GeoTransform) != 6 {
		return 0, 0, 0, fmt.Errorf("gdalinfo of %s: no geotransform (%v)", vrt, err)
	}
	return info.GeoTransform[0], info.GeoTransform[3], info.GeoTransform[1], nil
}

// int16Differences describes how two files of Int16 samples differ: how
// many samples, by how much at most, and the first.
func int16Differences(a, b string) (string, error) {
	x, err := os.ReadFile(a)
	if err != nil {
		return "", err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return "", err
	}
	if len(x) != len(y) {
		return fmt.Sprintf("%d and %d bytes", len(x), len(y)), nil
	}
	n, most, first := 0, 0, -1
	for i := 0; i+1 < len(x); i += 2 {
		p, q := int(int16(uint16(x[i])|uint16(x[i+1])<<8)), int(int16(uint16(y[i])|uint16(y[i+1])<<8))
		if p != q {
			n++
			most = max(most, abs(p-q))
			if first < 0 {
				first = i / 2
			}
		}
	}
	return fmt.Sprintf("%d of %d samples differ, by at most %d; the first is sample %d", n, len(x)/2, most, first), nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
