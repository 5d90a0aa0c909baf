package dem

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// Options configure an [Exporter].
type Options struct {
	// BytesPerSecond is the throughput the time estimate assumes, in bytes
	// of the window's samples (decoded, at the source's sample size) plus
	// the stored bytes read for them: the speed on a quiet machine, which
	// export.Exporter scales by what its exports really take (see
	// export.Exporter.Estimate). Default 100 MB/s: bench/estimates
	// exported the whole extent of bench/fairness's 16,000² Int16 COG
	// (580 MB read and decoded) in 4.5 s (126 MB/s) and a 10,000² window
	// of bench/demwindow's 40,000 × 20,000 one in 1.9 s on the shared
	// 2-core development machine at a load average of 1.4, and
	// bench/demwindow the whole extent of the latter (1.9 GB) in 24 to
	// 27 s (76 MB/s) at 4 to 6 (bench/README.md). The former default,
	// 40 MB/s, estimated 3.1 to 3.3 times the quiet machine's time.
	BytesPerSecond float64
	// TempDir holds the COG writer's scratch files during an export
	// (about the compressed size of the export) when the job has no
	// ScratchDir of its own. Default: os.TempDir().
	TempDir string
	// Open opens a record's source file for reading. Default: os.Open.
	// A benchmark wraps it to count the bytes an export reads.
	Open func(path string) (SourceFile, error)
	// MemoryBudget bounds the working memory of one export: the buffers
	// of the source reader and of the COG writer, whatever the source's
	// and the window's size. Default [DefaultMemoryBudget]. The reader
	// takes up to a quarter, or half for a source whose blocks need more
	// (the window's part of a row of source blocks, or a scratch file when
	// that does not fit, and a block decoder per core); the writer the rest (a row of tiles per level, double
	// buffered, or a scratch file for the levels that do not fit). A
	// window too wide to stream within it (about 150 bytes per pixel of
	// width for Int16 are needed even with scratch files) is refused.
	MemoryBudget int64
}

// defaultBytesPerSecond is Options.BytesPerSecond's default.
const defaultBytesPerSecond = 100e6

// DefaultMemoryBudget is an export's working memory when
// Options.MemoryBudget is 0: enough to hold in memory the rows of tiles of
// a 40,000-pixel-wide Int16 window and its overviews.
const DefaultMemoryBudget = 256 << 20

// uncompressedRatio is the compressed/decoded size the estimate assumes for
// the COG's data when the source is stored uncompressed, so its own ratio
// says nothing: Deflate with a predictor on smooth terrain (0.42 on the
// demo terrain in Float32).
const uncompressedRatio = 0.5

// The COG's compressed size against the source's own, for the same
// samples: the writer compresses with Deflate at klauspost's fastest level
// after a horizontal predictor, where GDAL's COMPRESS=DEFLATE uses level
// 6, with or without a predictor. bench/estimates exported the whole
// extent of bench/fairness's 8,000 × 8,000 Int16 COG: 24.0 MB, against
// 21.9 MB at the source's own ratio (Predictor 1, GDAL's default) and
// 15.3 MB at that of the same data written by gdal_translate with
// PREDICTOR=2.
const (
	plainSourceFactor     = 1.10 // a source compressed without a predictor
	predictorSourceFactor = 1.57 // a source compressed with one
)

// noDataRatio is the compressed/decoded size of nodata runs.
const noDataRatio = 0.005

// metadataAllowance is the bytes the estimate allows for the COG's header
// and for the ROI and METADATA files beyond the ROI's own JSON.
const metadataAllowance = 4096

// warpPixelSeconds is what the estimate allows a warped export for each
// output pixel beyond reading and writing: bench/demwindow -case warp
// measured 1.05 to 2.1 s (process start to exit) for a 1,024² window
// warped from UTM, COG writing included, on the shared 2-core machine at a
// load average of 17; a microsecond a pixel covers the slower rounds.
const warpPixelSeconds = 1e-6

// progressRows is how often an export reports progress, in rows read.
const progressRows = 32

// Exporter exports DEM records; see the package documentation for what it
// writes.
type Exporter struct {
	bytesPerSecond float64
	tempDir        string
	open           func(string) (SourceFile, error)
	memoryBudget   int64
	ratios         *ratioCache // the size estimate's sampled ratios
}

var _ export.Engine = (*Exporter)(nil)

// New returns an Exporter with the options' defaults filled in.
func New(opts Options) *Exporter {
	x := &Exporter{bytesPerSecond: opts.BytesPerSecond, tempDir: opts.TempDir, open: opts.Open, memoryBudget: opts.MemoryBudget, ratios: &ratioCache{}}
	if x.memoryBudget <= 0 {
		x.memoryBudget = DefaultMemoryBudget
	}
	if x.open == nil {
		x.open = openFile
	}
	if !(x.bytesPerSecond > 0) || math.IsInf(x.bytesPerSecond, 0) {
		x.bytesPerSecond = defaultBytesPerSecond
	}
	if x.tempDir == "" {
		x.tempDir = os.TempDir()
	}
	return x
}

// plan is what an export of a job reads and writes.
type plan struct {
	src *source
	// win is the source pixels read: the pixels exported, or, for a
	// warped export, those its pixels are computed from.
	win    window
	img    cog.Image
	noData [8]byte // img.NoData as one little-endian sample
	read   *geotiff.Window
	// writerBudget is what the COG writer may allocate: the budget less
	// the reader's buffers (and the warp's).
	writerBudget int64
	// warp is set for a source in a projected CRS: the output grid and
	// how its pixels are computed.
	warp *warpPlan
}

func (e *Exporter) plan(j export.Job, scratch string) (*plan, error) {
	return e.planWith(j, scratch, nil)
}

// planWith is plan with the source reader's blocks decoded in turns of
// turn (nil: without waiting).
func (e *Exporter) planWith(j export.Job, scratch string, turn func() (func(), error)) (*plan, error) {
	method, err := resamplingOf(j.Request().Parameters)
	if err != nil {
		return nil, err
	}
	src, err := openSource(j.Record(), e.open)
	if err != nil {
		return nil, err
	}
	if proj := src.projection(); proj != nil {
		return e.planWarp(j, src, proj, method, scratch, turn)
	}
	win, ok := src.windowOf(j.Box())
	if !ok {
		src.Close()
		// The area has an extent (export.NewJob refuses one without) but
		// covers no whole source pixel: a sliver along the grid's edge, or
		// a region smaller than a pixel.
		dx, dy := src.res()
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: fmt.Sprintf("is smaller than one pixel of the DEM (%g × %g degrees) where it meets the record: "+
				"the area to export covers no pixel of its grid", dx, dy)})
	}
	// The reader takes a quarter of the budget, or half when one of the
	// source's blocks needs more (a large strip).
	rd, err := src.tif.WindowWith(win.col, win.row, win.width, win.height,
		geotiff.WindowOptions{MemoryBudget: e.memoryBudget / 4, ScratchDir: scratch, Turn: turn})
	if err != nil {
		rd, err = src.tif.WindowWith(win.col, win.row, win.width, win.height,
			geotiff.WindowOptions{MemoryBudget: e.memoryBudget / 2, ScratchDir: scratch, Turn: turn})
	}
	if err != nil { // openSource checked the file, but its blocks may be too large for the budget
		src.Close()
		return nil, export.Permanent("the DEM record's source cannot be read within an export's memory budget: "+errText(err),
			fmt.Errorf("dem: %w", err))
	}
	dx, dy := src.res()
	p := &plan{src: src, win: win, read: rd, img: cog.Image{
		Width: win.width, Height: win.height,
		BitsPerSample: src.tif.BitsPerSample, SampleFormat: src.tif.SampleFormat,
		West:       src.gt[0] + float64(win.col)*dx,
		North:      src.gt[3] - float64(win.row)*dy,
		PixelWidth: dx, PixelHeight: dy,
	}}
	p.img.NoData = exportNoData(src)
	geotiff.EncodeValue(src.typ, p.img.NoData, p.noData[:])
	p.writerBudget = e.memoryBudget - rd.Memory()
	if _, err := cog.Memory(p.img, p.writerBudget, 0); err != nil {
		p.close()
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: fmt.Sprintf("selects %d × %d pixels of the DEM, too wide to export within an export's memory budget of %d MB: "+
				"export a narrower area (or several)", win.width, win.height, e.memoryBudget>>20)})
	}
	return p, nil
}

// exportNoData returns the nodata text of an export of src: the source's
// GDAL_NODATA when its sample type can hold it, else the type's lowest
// value (signed integers and floats) or highest (unsigned integers).
func exportNoData(src *source) string {
	var b [8]byte
	if src.tif.HasNoData && geotiff.EncodeValue(src.typ, src.tif.NoData, b[:]) {
		return src.tif.NoData
	}
	return DefaultNoData(src.typ)
}

// DefaultNoData returns the nodata value an export of a source of type t
// without a usable GDAL_NODATA declares (and writes outside the region of
// interest): the lowest value of signed integer and floating-point types,
// the highest of unsigned ones.
func DefaultNoData(t geotiff.SampleType) string {
	switch t {
	case geotiff.Int8:
		return "-128"
	case geotiff.UInt8:
		return "255"
	case geotiff.Int16:
		return "-32768"
	case geotiff.UInt16:
		return "65535"
	case geotiff.Int32:
		return "-2147483648"
	case geotiff.UInt32:
		return "4294967295"
	case geotiff.Float32:
		return "-3.4028234663852886e+38"
	}
	return "-1.7976931348623157e+308"
}

func (p *plan) close() {
	p.read.Close()
	p.src.Close()
}

// Estimate forecasts the export from the grid window the job selects. Its
// time counts the stored bytes of the source blocks the window meets and
// the window's decoded samples; its size the COG (the window's samples
// inside the exported area at the ratio the COG writer reaches on a few
// tiles' worth of them and at the overviews' growth, see sampledRatios,
// or else at the source's own ratio times plainSourceFactor or
// predictorSourceFactor; next to nothing for nodata; overviews included)
// plus the ROI and METADATA files.
func (e *Exporter) Estimate(_ context.Context, j export.Job) (export.Estimate, error) {
	p, err := e.plan(j, e.tempDir)
	if err != nil {
		return export.Estimate{}, err
	}
	defer p.close()
	stored := p.read.StoredBytes()
	decoded := float64(p.img.Width) * float64(p.img.Height) * float64(p.img.BitsPerSample/8)
	r, sampled := e.ratios.ratios(p, j.Record().Source.Version(), e.tempDir)
	if !sampled {
		r = ratios{full: p.sourceRatio(stored), growth: 1}
	}
	in := insideFraction(j, p)
	sample := float64(p.img.BitsPerSample / 8)
	size := sample*(in*compressedPixels(p.img.Width, p.img.Height, r)+
		(1-in)*noDataRatio*compressedPixels(p.img.Width, p.img.Height, ratios{full: 1, growth: 1})) +
		metadataAllowance + 2*float64(roiSize(j))
	rows, pixels := int64(p.img.Height), int64(p.img.Width)*int64(p.img.Height)
	warpSecs := 0.0
	if p.warp != nil {
		// The source window is decoded too, and every pixel transformed
		// and resampled.
		decoded += float64(p.win.width) * float64(p.win.height) * float64(p.img.BitsPerSample/8)
		warpSecs = float64(pixels) * warpPixelSeconds
	}
	secs := int64(math.Ceil((float64(stored)+decoded)/e.bytesPerSecond + warpSecs + j.MaskTime(rows, pixels).Seconds()))
	return export.Estimate{Size: int64(size), Time: max(secs, 1), Artifacts: producedTypes()}, nil
}

// sourceRatio is the compressed/decoded size the estimate assumes for
// the COG's data when it is not sampled (see sampledRatios): the source's
// own ratio over the blocks the window meets (stored bytes of them),
// times plainSourceFactor or predictorSourceFactor; uncompressedRatio for
// an uncompressed source.
func (p *plan) sourceRatio(stored int64) float64 {
	f := p.src.tif
	if f.Compression == 1 {
		return uncompressedRatio
	}
	// The decoded bytes of the blocks met, without the padding of
	// tiles beyond the image's edges (it compresses to nothing).
	var pixels int64
	for by := p.win.row / f.BlockHeight; by <= (p.win.row+p.win.height-1)/f.BlockHeight; by++ {
		h := min((by+1)*f.BlockHeight, f.Height) - by*f.BlockHeight
		for bx := p.win.col / f.BlockWidth; bx <= (p.win.col+p.win.width-1)/f.BlockWidth; bx++ {
			pixels += int64(h) * int64(min((bx+1)*f.BlockWidth, f.Width)-bx*f.BlockWidth)
		}
	}
	factor := predictorSourceFactor
	if f.Predictor <= 1 {
		factor = plainSourceFactor
	}
	return min(1, factor*float64(stored)/float64(pixels*int64(f.SampleBytes())))
}

// producedTypes are the types of the artifacts Export writes, in its
// order: the COG, the ROI, the METADATA.
func producedTypes() []exporttask.ArtifactType {
	return []exporttask.ArtifactType{exporttask.ArtifactModel, exporttask.ArtifactROI, exporttask.ArtifactMetadata}
}

// SourceBytes returns the stored (compressed) bytes of the source blocks
// the job's window meets: what an export reads from the source besides
// its header and IFDs.
func (e *Exporter) SourceBytes(_ context.Context, j export.Job) (int64, error) {
	p, err := e.plan(j, e.tempDir)
	if err != nil {
		return 0, err
	}
	defer p.close()
	return p.read.StoredBytes(), nil
}

// Export writes the COG, the ROI and the METADATA.
func (e *Exporter) Export(ctx context.Context, j export.Job, out export.Output) ([]exporttask.Artifact, error) {
	e = e.stoppingAt(ctx) // a stop reaches the next block read
	scratch := e.tempDir
	if j.ScratchDir() != "" {
		scratch = j.ScratchDir()
	}
	// Each source block decoded and each tile compressed waits for a
	// turn at CPU work when the worker paces this export (see
	// export.Pace).
	turn := func() (func(), error) { return export.Pace(ctx) }
	p, err := e.planWith(j, scratch, turn)
	if err != nil {
		return nil, err
	}
	defer p.close()
	base := exportio.FileBase(j.Record().ID)
	total := int64(p.img.Height)
	if err := out.Progress(0, total); err != nil {
		return nil, err
	}
	var inside int64 // pixels with data
	model, err := exportio.Write(ctx, out, base+".tif", exporttask.ArtifactModel, func(w io.Writer) error {
		var rows cog.Rows
		if p.warp != nil {
			rows = p.warp.stream(p, j, &inside, turn).cogRows()
		} else {
			rows = p.rows(j, &inside)
		}
		_, err := cog.WriteWith(ctx, w, p.img, func(y int, buf []byte) error {
			if y > 0 && y%progressRows == 0 {
				if err := out.Progress(int64(y), total); err != nil {
					return err
				}
			}
			return rows(y, buf)
		}, cog.Options{ScratchDir: scratch, MemoryBudget: p.writerBudget, Turn: turn})
		if err != nil {
			return err
		}
		return out.Progress(total, total)
	})
	if err != nil {
		return nil, fmt.Errorf("dem: %w", err)
	}
	roi := exportio.ROI(j.Request(), j.Record())
	roiArt, err := exportio.WriteJSON(ctx, out, "roi.geojson", exporttask.ArtifactROI, roi)
	if err != nil {
		return nil, fmt.Errorf("dem: %w", err)
	}
	arts := []exporttask.Artifact{model, roiArt}
	meta, err := exportio.WriteJSON(ctx, out, "metadata.json", exporttask.ArtifactMetadata, p.metadata(j, inside, arts, time.Now()))
	if err != nil {
		return nil, fmt.Errorf("dem: %w", err)
	}
	return append(arts, meta), nil
}

// rows returns the COG's row source: the window's source rows with the
// nodata value at pixel centres outside the job's area. It adds the
// pixels with data to inside.
func (p *plan) rows(j export.Job, inside *int64) cog.Rows {
	in := make([]bool, p.win.width)
	valid, count := p.src.tif.Valid(), p.src.tif.CountValid()
	size := p.img.BitsPerSample / 8
	nd := p.noData[:size]
	dx, _ := p.src.res()
	return func(y int, buf []byte) error {
		if err := p.read.Row(y, buf); err != nil {
			return export.Permanent("the DEM record's source cannot be read",
				fmt.Errorf("dem: %s: %w", p.src.path, err))
		}
		r := p.win.row + y
		j.InsideRow(p.src.lat(r), p.src.lon(p.win.col), dx, in)
		if !slices.Contains(in, false) {
			*inside += int64(count(buf, len(in)))
			return nil
		}
		for x, ok := range in {
			if !ok {
				copy(buf[x*size:], nd)
			} else if valid(buf, x) {
				*inside++
			}
		}
		return nil
	}
}

// insideFraction estimates the share of the output's pixels whose centre
// is in the job's area, from a grid of at most 64×64 samples.
func insideFraction(j export.Job, p *plan) float64 {
	img := p.img
	nx, ny := min(img.Width, 64), min(img.Height, 64)
	in := 0
	for sy := range ny {
		lat := img.North - (float64((2*sy+1)*img.Height/(2*ny))+0.5)*img.PixelHeight
		for sx := range nx {
			lon := img.West + (float64((2*sx+1)*img.Width/(2*nx))+0.5)*img.PixelWidth
			if j.Contains(lon, lat) {
				in++
			}
		}
	}
	return float64(in) / float64(nx*ny)
}
