package dem

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// Options configure an [Exporter].
type Options struct {
	// BytesPerSecond is the throughput the time estimate assumes, in bytes
	// of the window's samples (decoded, at the source's sample size) plus
	// the stored bytes read for them. Default 5 MB/s: BenchmarkExport
	// measured 3.7 to 5.1 MB/s (the whole 1200×1200 Float32 demo record)
	// on the shared 2-core development machine at a load average of about
	// 20; most of the CPU time is the COG's Deflate compression.
	BytesPerSecond float64
	// TempDir holds the COG writer's scratch files during an export
	// (about the compressed size of the export) when the job has no
	// ScratchDir of its own. Default: os.TempDir().
	TempDir string
	// Open opens a record's source file for reading. Default: os.Open.
	// A benchmark wraps it to count the bytes an export reads.
	Open func(path string) (SourceFile, error)
}

// uncompressedRatio is the compressed/decoded size the estimate assumes for
// the COG's data when the source is stored uncompressed, so its own ratio
// says nothing: Deflate with a predictor on smooth terrain (0.42 on the
// demo terrain in Float32).
const uncompressedRatio = 0.5

// predictorGain is how much smaller the COG's Deflate with a predictor
// is than a source compressed without one (Predictor 1, GDAL's default
// for COMPRESS=DEFLATE): bench/estimates measured 17.0 MB exported
// against 21.9 MB estimated from the source's own ratio for the whole
// extent of bench/fairness's 8,000 × 8,000 Int16 COG.
const predictorGain = 0.78

// noDataRatio is the compressed/decoded size of nodata runs.
const noDataRatio = 0.005

// metadataAllowance is the bytes the estimate allows for the COG's header
// and for the ROI and METADATA files beyond the ROI's own JSON.
const metadataAllowance = 4096

// progressRows is how often an export reports progress, in rows read.
const progressRows = 32

// Exporter exports DEM records; see the package documentation for what it
// writes.
type Exporter struct {
	bytesPerSecond float64
	tempDir        string
	open           func(string) (SourceFile, error)
}

var _ export.Domain = (*Exporter)(nil)

// New returns an Exporter with the options' defaults filled in.
func New(opts Options) *Exporter {
	x := &Exporter{bytesPerSecond: opts.BytesPerSecond, tempDir: opts.TempDir, open: opts.Open}
	if x.open == nil {
		x.open = openFile
	}
	if !(x.bytesPerSecond > 0) || math.IsInf(x.bytesPerSecond, 0) {
		x.bytesPerSecond = 5e6
	}
	if x.tempDir == "" {
		x.tempDir = os.TempDir()
	}
	return x
}

// plan is what an export of a job reads and writes.
type plan struct {
	src    *source
	win    window
	img    cog.Image
	noData [8]byte // img.NoData as one little-endian sample
	read   *geotiff.Window
}

func (e *Exporter) plan(j export.Job) (*plan, error) {
	src, err := openSource(j.Record, e.open)
	if err != nil {
		return nil, err
	}
	win, ok := src.windowOf(geom.BBox(j.Box))
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
	rd, err := src.tif.Window(win.col, win.row, win.width, win.height)
	if err != nil { // openSource checked the file: not expected
		src.Close()
		return nil, exporttask.Permanent("the DEM record's source cannot be read", fmt.Errorf("dem: %w", err))
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

func (p *plan) close() { p.src.Close() }

// Estimate forecasts the export from the grid window the job selects. Its
// time counts the stored bytes of the source blocks the window meets and
// the window's decoded samples; its size the COG (the window's samples at
// the source's compression ratio, less predictorGain for a source
// compressed without a predictor, inside the exported area, next to nothing
// for nodata, a third more for overviews) plus the ROI and METADATA files.
func (e *Exporter) Estimate(_ context.Context, j export.Job) (exporttask.Estimate, error) {
	p, err := e.plan(j)
	if err != nil {
		return exporttask.Estimate{}, err
	}
	defer p.close()
	stored := p.read.StoredBytes()
	decoded := float64(p.img.Width) * float64(p.img.Height) * float64(p.img.BitsPerSample/8)
	ratio := uncompressedRatio
	if f := p.src.tif; f.Compression != 1 {
		// The decoded bytes of the blocks met, without the padding of
		// tiles beyond the image's edges (it compresses to nothing).
		var pixels int64
		for by := p.win.row / f.BlockHeight; by <= (p.win.row+p.win.height-1)/f.BlockHeight; by++ {
			h := min((by+1)*f.BlockHeight, f.Height) - by*f.BlockHeight
			for bx := p.win.col / f.BlockWidth; bx <= (p.win.col+p.win.width-1)/f.BlockWidth; bx++ {
				pixels += int64(h) * int64(min((bx+1)*f.BlockWidth, f.Width)-bx*f.BlockWidth)
			}
		}
		ratio = min(1, float64(stored)/float64(pixels*int64(f.SampleBytes())))
		if f.Predictor <= 1 {
			ratio *= predictorGain
		}
	}
	in := insideFraction(j, p)
	size := decoded*(in*ratio+(1-in)*noDataRatio)*overviewFactor(p.img.Width, p.img.Height) +
		metadataAllowance + 2*float64(roiSize(j))
	rows, pixels := int64(p.img.Height), int64(p.img.Width)*int64(p.img.Height)
	secs := int64(math.Ceil((float64(stored)+decoded)/e.bytesPerSecond + j.MaskTime(rows, pixels).Seconds()))
	return exporttask.Estimate{Size: int64(size), Time: max(secs, 1), Artifacts: producedTypes()}, nil
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
	p, err := e.plan(j)
	if err != nil {
		return 0, err
	}
	defer p.close()
	return p.read.StoredBytes(), nil
}

// Export writes the COG, the ROI and the METADATA.
func (e *Exporter) Export(ctx context.Context, j export.Job, out exporttask.Output) ([]exporttask.Artifact, error) {
	p, err := e.plan(j)
	if err != nil {
		return nil, err
	}
	defer p.close()
	base := exportio.FileBase(j.Record.ID)
	total := int64(p.img.Height)
	if err := out.Progress(0, total); err != nil {
		return nil, err
	}
	var inside int64 // pixels with data
	scratch := e.tempDir
	if j.ScratchDir != "" {
		scratch = j.ScratchDir
	}
	model, err := exportio.Write(ctx, out, base+".tif", exporttask.ArtifactModel, func(w io.Writer) error {
		rows := p.rows(j, &inside)
		_, err := cog.Write(ctx, w, p.img, func(y int, buf []byte) error {
			if y > 0 && y%progressRows == 0 {
				if err := out.Progress(int64(y), total); err != nil {
					return err
				}
			}
			return rows(y, buf)
		}, scratch, nil)
		if err != nil {
			return err
		}
		return out.Progress(total, total)
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
	valid := p.src.tif.Valid()
	size := p.img.BitsPerSample / 8
	nd := p.noData[:size]
	dx, _ := p.src.res()
	return func(y int, buf []byte) error {
		if err := p.read.Row(y, buf); err != nil {
			return exporttask.Permanent("the DEM record's source cannot be read",
				fmt.Errorf("dem: %s: %w", p.src.path, err))
		}
		r := p.win.row + y
		j.InsideRow(p.src.lat(r), p.src.lon(p.win.col), dx, in)
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

// overviewFactor is the pixels of a COG of w×h pixels with its overviews
// (halved until they fit one 512-pixel tile, as the COG writer does) over
// those of the full resolution.
func overviewFactor(w, h int) float64 {
	total, full := 0.0, float64(w)*float64(h)
	for {
		total += float64(w) * float64(h)
		if w <= cog.DefaultBlockSize && h <= cog.DefaultBlockSize {
			return total / full
		}
		w, h = max(1, w/2), max(1, h/2)
	}
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
