package dem

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// Options configure an [Exporter].
type Options struct {
	// Deflate compresses the GeoTIFF (Deflate with the floating-point
	// predictor): 0.42 of the size on the demo terrain, less where NoData
	// fills the box, for ten times the encoding work, and the estimate
	// becomes approximate. Default false: uncompressed, and the GeoTIFF's
	// estimated size is exact.
	Deflate bool
	// BytesPerSecond is the throughput the time estimate assumes, in
	// uncompressed GeoTIFF bytes per second. Default 40 MB/s, or 5 MB/s
	// with Deflate: BenchmarkExport measured 53 and 5.1 MB/s for the whole
	// demo record (5.8 MB) on the shared 2-core development machine under
	// load.
	BytesPerSecond float64
}

// deflateRatio and deflateNoDataRatio are the compressed/uncompressed sizes
// of the demo terrain and of NoData runs with Deflate and predictor 3, as
// TestDeflateEstimate measures them; estimates use them.
const (
	deflateRatio       = 0.42
	deflateNoDataRatio = 0.005
)

// metadataAllowance is the bytes the estimate allows for the ROI and
// METADATA files beyond the ROI's own JSON.
const metadataAllowance = 2048

// Exporter exports DEM records; see the package documentation for what it
// writes.
type Exporter struct {
	opts Options
}

var _ export.Domain = (*Exporter)(nil)

// New returns an Exporter with the options' defaults filled in.
func New(opts Options) *Exporter {
	if !(opts.BytesPerSecond > 0) {
		opts.BytesPerSecond = 40e6
		if opts.Deflate {
			opts.BytesPerSecond = 5e6
		}
	}
	return &Exporter{opts: opts}
}

// plan is what an export of a job writes.
type plan struct {
	src *source
	win window
	img geotiff.Image
}

func (e *Exporter) plan(j export.Job) (*plan, error) {
	src, err := openSource(j.Record)
	if err != nil {
		return nil, err
	}
	win, ok := src.windowOf(j.Box)
	if !ok {
		src.Close()
		return nil, exporttask.Permanent("the region of interest does not meet the DEM's grid",
			fmt.Errorf("box %+v outside grid %+v", j.Box, src.box))
	}
	img := geotiff.Image{
		Width: win.width, Height: win.height,
		West:      src.box.West + float64(win.col)*src.res,
		North:     src.box.North - float64(win.row)*src.res,
		PixelSize: src.res, NoData: NoData, RowsPerStrip: 16,
	}
	if e.opts.Deflate {
		img.Compression = geotiff.Deflate
	}
	return &plan{src: src, win: win, img: img}, nil
}

// Estimate forecasts the export from the grid window the job selects: the
// GeoTIFF's size (exact when uncompressed) plus the ROI and METADATA files.
func (e *Exporter) Estimate(_ context.Context, j export.Job) (exporttask.Estimate, error) {
	p, err := e.plan(j)
	if err != nil {
		return exporttask.Estimate{}, err
	}
	p.src.Close()
	size, err := geotiff.Size(p.img)
	if err != nil {
		return exporttask.Estimate{}, fmt.Errorf("dem: %w", err)
	}
	secs := int64(math.Ceil(float64(size)/e.opts.BytesPerSecond + j.MaskTime(int64(p.img.Height), int64(p.img.Width)*int64(p.img.Height)).Seconds()))
	if e.opts.Deflate {
		pixels := 4 * float64(p.img.Width) * float64(p.img.Height)
		head := float64(size) - pixels
		in := insideFraction(j, p)
		size = int64(head + pixels*(in*deflateRatio+(1-in)*deflateNoDataRatio))
	}
	size += 2*roiSize(j) + metadataAllowance // the ROI is written twice: its file and METADATA
	return exporttask.Estimate{Size: size, Time: max(secs, 1)}, nil
}

// Export writes the GeoTIFF, the ROI and the METADATA.
func (e *Exporter) Export(ctx context.Context, j export.Job, out exporttask.Output) ([]exporttask.Artifact, error) {
	p, err := e.plan(j)
	if err != nil {
		return nil, err
	}
	defer p.src.Close()
	base := exportio.FileBase(j.Record.ID)
	total := int64(p.img.Height)
	if err := out.Progress(0, total); err != nil {
		return nil, err
	}
	inside := make([]int32, p.img.Height) // pixels with data, per row
	model, err := exportio.Write(ctx, out, base+".tif", exporttask.ArtifactModel, func(w io.Writer) error {
		rows := p.rows(ctx, j, inside)
		_, err := geotiff.Encode(w, p.img, rows, func(done int) error {
			return out.Progress(int64(done), total)
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("dem: %w", err)
	}
	roi := exportio.ROI(j.Request, j.Record)
	roiArt, err := exportio.WriteJSON(ctx, out, "roi.geojson", exporttask.ArtifactROI, roi)
	if err != nil {
		return nil, fmt.Errorf("dem: %w", err)
	}
	arts := []exporttask.Artifact{model, roiArt}
	meta, err := exportio.WriteJSON(ctx, out, "metadata.json", exporttask.ArtifactMetadata, p.metadata(j, roi, sum(inside), arts))
	if err != nil {
		return nil, fmt.Errorf("dem: %w", err)
	}
	return append(arts, meta), nil
}

// rows returns the GeoTIFF's row source: the window's source rows with
// NoData at pixel centres outside the job's area. It counts each row's
// pixels with data in inside (set, not added: Deflate reads rows twice).
func (p *plan) rows(ctx context.Context, j export.Job, inside []int32) geotiff.Rows {
	buf := make([]byte, 4*p.win.width)
	in := make([]bool, p.win.width)
	return func(y int, row []float32) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		r := p.win.row + y
		if err := p.src.readRow(r, p.win.col, buf); err != nil {
			return err
		}
		j.InsideRow(p.src.lat(r), p.src.lon(p.win.col), p.src.res, in)
		inside[y] = 0
		for x := range row {
			v := math.Float32frombits(binary.LittleEndian.Uint32(buf[4*x:]))
			if v == NoData || !in[x] {
				row[x] = NoData
				continue
			}
			row[x] = v
			inside[y]++
		}
		return nil
	}
}

func sum(v []int32) int64 {
	var n int64
	for _, x := range v {
		n += int64(x)
	}
	return n
}

// insideFraction estimates the share of the window's pixels whose centre is
// in the job's area, from a grid of at most 64×64 samples.
func insideFraction(j export.Job, p *plan) float64 {
	nx, ny := min(p.img.Width, 64), min(p.img.Height, 64)
	in := 0
	for sy := range ny {
		r := p.win.row + (2*sy+1)*p.win.height/(2*ny)
		for sx := range nx {
			c := p.win.col + (2*sx+1)*p.win.width/(2*nx)
			if j.Contains(p.src.lon(c), p.src.lat(r)) {
				in++
			}
		}
	}
	return float64(in) / float64(nx*ny)
}
