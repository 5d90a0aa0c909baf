// Command rasterimagery measures a RASTER export rendered from an RGB COG
// in UTM against the GDAL pipeline that makes the same tiles, in
// alternating rounds, each contender a child process whose peak anonymous
// memory is sampled.
//
//	cd bench && go run ./rasterimagery                        # 28,000² pixels, about 22,000 tiles, 3 rounds
//	go run ./rasterimagery -pixels 8000 -rounds 2             # a quick run
//	go run ./rasterimagery -keep /var/tmp/rasterimagery       # build the COG once, reuse it
//
// The source is a JPEG-compressed COG in EPSG:32636 (UTM 36N) of 10 m
// pixels, made by gdal_translate from a smaller picture this program
// draws. The contenders, each run into a fresh directory:
//
//   - export: raster.Inspect of the COG (its record: levels as GDAL
//     chooses them), then raster.Exporter.Export of the whole record
//     (tiles rendered, GeoPackage, thumbnails, metadata), in a child
//     process (this program, -child);
//   - gdal: `gdalwarp -t_srs EPSG:4326 -r near -dstalpha -of VRT` (no
//     intermediate file), `gdal_translate -of GPKG -co
//     TILING_SCHEME=InspireCRS84Quad -co RESAMPLING=NEAREST`, `gdaladdo
//     -r nearest` with the factors it chooses; GDAL_NUM_THREADS=ALL_CPUS
//     and gdalwarp -multi -wo NUM_THREADS=ALL_CPUS.
//
// Both write tiles in the same format (-format, default AUTO: JPEG of
// quality 75 where a tile is opaque, PNG elsewhere; GDAL's TILE_FORMAT).
// It prints each contender's median time, the export's speed against the
// pipeline, the tiles written and the peak RssAnon.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/bench/internal/procstat"

	_ "modernc.org/sqlite"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

func main() {
	pixels := flag.Int("pixels", 28000, "the COG's width and height in pixels (10 m each)")
	rounds := flag.Int("rounds", 3, "alternating rounds of each contender")
	keep := flag.String("keep", "", "build the COG in this directory and keep it; reused when already there")
	format := flag.String("format", "AUTO", "tile format of both contenders: AUTO, PNG or JPEG")
	child := flag.String("child", "", "internal: run the export of the COG named by the arguments")
	cpuprofile := flag.String("cpuprofile", "", "with -child: write a CPU profile of the export to this file")
	flag.Parse()
	var err error
	if *child != "" {
		if *cpuprofile != "" {
			f, perr := os.Create(*cpuprofile)
			if perr != nil {
				fmt.Fprintln(os.Stderr, "rasterimagery:", perr)
				os.Exit(1)
			}
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
		err = runChild(flag.Arg(0), flag.Arg(1), *format)
	} else {
		err = run(*pixels, *rounds, *keep, strings.ToUpper(*format))
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "rasterimagery:", err)
		os.Exit(1)
	}
}

func run(pixels, rounds int, keep, format string) error {
	work, err := os.MkdirTemp("", "rasterimagery-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	srcDir := keep
	if srcDir == "" {
		srcDir = work
	}
	cog, err := buildCOG(srcDir, pixels)
	if err != nil {
		return err
	}
	st, err := os.Stat(cog)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "source %s: %d×%d pixels, %.0f MB; tile format %s\n", cog, pixels, pixels, mb(st.Size()), format)
	cs := []contender{
		{"export", func(out string) *exec.Cmd {
			return exec.Command(self, "-child", "export", "-format", format, cog, out)
		}},
		{"gdal", func(out string) *exec.Cmd { return gdalPipeline(cog, out, format) }},
	}
	res := map[string]*result{}
	for _, c := range cs {
		res[c.name] = &result{}
	}
	for r := range rounds {
		for _, c := range cs {
			dir := filepath.Join(work, fmt.Sprintf("%s-%d", c.name, r))
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			d, rss, err := runSampled(c.cmd(dir))
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			tiles, err := countTiles(dir)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
			x := res[c.name]
			x.times, x.rss, x.tiles = append(x.times, d), append(x.rss, rss), tiles
			fmt.Fprintf(os.Stderr, "round %d: %-7s %8v  %6d tiles  peak RssAnon %4.0f MB\n", r+1, c.name, d.Round(time.Millisecond), tiles, mb(rss))
		}
	}
	exp := median(res["export"].times)
	for _, c := range cs {
		r := res[c.name]
		m := median(r.times)
		fmt.Printf("%-7s median %8v  %6d tiles  %6.0f tiles/s  export speed / this %.2f×  peak RssAnon %4.0f MB (max %4.0f)  rounds %v\n",
			c.name, m.Round(time.Millisecond), r.tiles, float64(r.tiles)/m.Seconds(), m.Seconds()/exp.Seconds(),
			mb(median(r.rss)), mb(slices.Max(r.rss)), roundTimes(r.times))
	}
	return nil
}

// contender is one way of making the tiles.
type contender struct {
	name string
	cmd  func(out string) *exec.Cmd
}

// result is one contender's rounds.
type result struct {
	times []time.Duration
	rss   []int64
	tiles int64
}

// gdalPipeline is the GDAL commands that make the export's GeoPackage,
// run by sh; the peak RssAnon sampled is the shell's, not GDAL's.
func gdalPipeline(cog, out, format string) *exec.Cmd {
	vrt := filepath.Join(out, "warped.vrt")
	gpkg := filepath.Join(out, "gdal.gpkg")
	script := fmt.Sprintf(`set -e
gdalwarp -q -t_srs EPSG:4326 -r near -dstalpha -multi -wo NUM_THREADS=ALL_CPUS -of VRT %[1]q %[2]q
gdal_translate -q -of GPKG -co TILING_SCHEME=InspireCRS84Quad -co RESAMPLING=NEAREST -co TILE_FORMAT=%[4]s %[2]q %[3]q
gdaladdo -q -r nearest -oo TILE_FORMAT=%[4]s %[3]q
`, cog, vrt, gpkg, format)
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "GDAL_NUM_THREADS=ALL_CPUS")
	return cmd
}

// runChild registers the COG and exports it whole into out.
func runChild(cog, out, format string) error {
	ctx := context.Background()
	rec, err := raster.Inspect(ctx, catalog.Source{Path: cog})
	if err != nil {
		return err
	}
	rec.ID, rec.Location = "0f0e0d0c-0b0a-4908-8706-050403020100", out
	j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain,
		Parameters: map[string]any{raster.ParamTileFormat: format}})
	if err != nil {
		return err
	}
	arts, err := raster.New(raster.Options{TempDir: out}).Export(ctx, j, &dirOutput{dir: out})
	if err != nil {
		return err
	}
	b, _ := json.Marshal(arts)
	return os.WriteFile(filepath.Join(out, "artifacts.json"), b, 0o644)
}

// buildCOG writes dir/utm-N.tif once: a picture drawn here (smooth
// colours and fine texture), scaled up by gdal_translate to N×N pixels of
// 10 m in UTM 36N, a JPEG-compressed COG (YCbCr, 512-pixel tiles, with
// overviews).
func buildCOG(dir string, n int) (string, error) {
	cog := filepath.Join(dir, fmt.Sprintf("utm-%d.tif", n))
	if _, err := os.Stat(cog); err == nil {
		return cog, nil
	}
	const side = 2000
	m := image.NewRGBA(image.Rect(0, 0, side, side))
	for y := range side {
		for x := range side {
			w := math.Sin(float64(x)/53)*math.Cos(float64(y)/31)*0.5 + 0.5
			tex := float64((x*7919+y*104729)%37) - 18
			m.Set(x, y, color.RGBA{uint8(min(max(float64(x)*255/side+tex, 0), 255)), uint8(min(max(255*w+tex, 0), 255)),
				uint8(min(max(float64(y)*255/side-tex, 0), 255)), 255})
		}
	}
	pic := filepath.Join(dir, "picture.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		return "", err
	}
	if err := os.WriteFile(pic, buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	const west, north = 600000.0, 3600000.0
	size := float64(n) * 10
	tmp := cog + ".partial"
	cmd := exec.Command("gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=JPEG", "-co", "BLOCKSIZE=512",
		"-co", "NUM_THREADS=ALL_CPUS", "-r", "bilinear", "-outsize", strconv.Itoa(n), strconv.Itoa(n),
		"-a_srs", "EPSG:32636", "-a_ullr", fmt.Sprint(west), fmt.Sprint(north), fmt.Sprint(west+size), fmt.Sprint(north-size), pic, tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("gdal_translate: %w: %s", err, out)
	}
	return cog, os.Rename(tmp, cog)
}

// countTiles counts the tiles of the GeoPackage in dir (its one tile
// table).
func countTiles(dir string) (int64, error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.gpkg"))
	if len(paths) != 1 {
		return 0, fmt.Errorf("%d GeoPackages in %s", len(paths), dir)
	}
	db, err := sql.Open("sqlite", "file:"+paths[0]+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var table string
	if err := db.QueryRow(`SELECT table_name FROM gpkg_contents WHERE data_type = 'tiles'`).Scan(&table); err != nil {
		return 0, err
	}
	var n int64
	err = db.QueryRow(`SELECT count(*) FROM "` + table + `"`).Scan(&n)
	return n, err
}

// runSampled runs cmd and returns how long it took and the largest
// RssAnon read from /proc every 20 ms while it ran.
func runSampled(cmd *exec.Cmd) (time.Duration, int64, error) {
	r, err := procstat.Run(context.Background(), cmd, 20*time.Millisecond)
	return r.Wall, r.PeakRssAnon, err
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func mb(n int64) float64 { return float64(n) / 1e6 }

func roundTimes(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(100 * time.Millisecond)
	}
	return out
}

// dirOutput is an export.Output writing files into a directory.
type dirOutput struct{ dir string }

func (o *dirOutput) Progress(done, total int64) error { return nil }

func (o *dirOutput) Create(_ context.Context, name string) (artifact.Writer, error) {
	f, err := os.Create(filepath.Join(o.dir, name))
	if err != nil {
		return nil, err
	}
	return &fileWriter{f: f}, nil
}

type fileWriter struct {
	f *os.File
	n int64
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *fileWriter) Commit() (artifact.Info, error) {
	return artifact.Info{Key: filepath.Base(w.f.Name()), Size: w.n}, w.f.Close()
}

func (w *fileWriter) Abort() error {
	w.f.Close()
	return os.Remove(w.f.Name())
}
