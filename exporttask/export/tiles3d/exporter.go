package tiles3d

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
)

// Options configure an [Exporter].
type Options struct {
	// BytesPerSecond is the throughput the time estimate assumes, in bytes
	// of tile content exported per second (zip, thumbnails and metadata
	// included). Default 3 MB/s: BenchmarkExport measured 3.1 MB/s for the
	// whole demo record on the shared 2-core development machine under
	// heavy load; most of the time goes to the thumbnails.
	BytesPerSecond float64
}

// Estimate constants, measured on the demo record by TestEstimate.
const (
	// tilesetDeflateRatio is the deflated/plain size of a tileset JSON.
	tilesetDeflateRatio = 0.3
	// pngBytesPerPixel is a thumbnail's PNG bytes per opaque pixel.
	pngBytesPerPixel = 0.3
	// metadataAllowance covers the METADATA file beside the ROI in it.
	metadataAllowance = 1500
)

// Exporter exports 3D records as a zipped 3D Tiles subset; see the package
// documentation for what it writes.
type Exporter struct {
	opts Options
}

var _ export.Domain = (*Exporter)(nil)

// New returns an Exporter with the options' defaults filled in.
func New(opts Options) *Exporter {
	if !(opts.BytesPerSecond > 0) {
		opts.BytesPerSecond = 3e6
	}
	return &Exporter{opts: opts}
}

// plan is what an export of a job writes.
type plan struct {
	dir    string   // the source tileset directory
	subset Tileset  // the tileset to write
	uris   []string // its contents, coarse first
	tiles  int      // tiles in the subset
}

func (e *Exporter) plan(j export.Job) (*plan, error) {
	if j.Box.Empty() || j.Box.Width() == 0 || j.Box.Height() == 0 {
		return nil, exporttask.Permanent("the exported area has no extent", fmt.Errorf("box %+v", j.Box))
	}
	dir := filepath.Join(j.Record.Location, SourceDir)
	ts, err := loadTileset(dir)
	if err != nil {
		return nil, err
	}
	root, ok := subset(&ts.Root, j.IntersectsBox)
	if !ok {
		return nil, exporttask.Permanent("the region of interest does not meet the 3D record's tileset",
			fmt.Errorf("box %+v", j.Box))
	}
	sub := *ts
	sub.Root = root
	return &plan{dir: dir, subset: sub, uris: contents(&root), tiles: countTiles(&root)}, nil
}

// Estimate forecasts the export from the tiles the job selects: their
// content sizes plus the zip's headers, the tileset JSON, the thumbnails
// (by their opaque area) and the METADATA.
func (e *Exporter) Estimate(_ context.Context, j export.Job) (exporttask.Estimate, error) {
	p, err := e.plan(j)
	if err != nil {
		return exporttask.Estimate{}, err
	}
	var content int64
	size := int64(zipEnd)
	for _, u := range p.uris {
		st, err := os.Stat(filepath.Join(p.dir, filepath.FromSlash(u)))
		if err != nil {
			return exporttask.Estimate{}, exporttask.Permanent("the 3D record's tile content is missing", err)
		}
		content += st.Size()
		size += zipOverhead + 2*int64(len(u))
	}
	size += content
	js, err := json.Marshal(p.subset)
	if err != nil {
		return exporttask.Estimate{}, fmt.Errorf("tiles3d: %w", err)
	}
	size += zipOverhead + 2*int64(len(TilesetFile)) + int64(float64(len(js))*tilesetDeflateRatio)
	inside := insideFraction(j)
	for _, long := range []int{thumbSmall, thumbMedium, thumbLarge} {
		w, h := thumbSize(j.Box, long)
		size += int64(float64(w*h)*inside*pngBytesPerPixel) + 100
	}
	roi, err := exportio.MarshalIndent(exportio.ROI(j.Request, j.Record))
	if err != nil {
		return exporttask.Estimate{}, fmt.Errorf("tiles3d: %w", err)
	}
	size += 2*int64(len(roi)) + metadataAllowance
	secs := int64(math.Ceil(float64(content)/e.opts.BytesPerSecond + j.MaskTime(int64(len(p.uris))+thumbSmall+thumbMedium+thumbLarge, 2*thumbLarge*thumbLarge).Seconds()))
	return exporttask.Estimate{Size: size, Time: max(secs, 1)}, nil
}

// insideFraction estimates the share of j's box inside its area from a
// 32×32 grid of samples.
func insideFraction(j export.Job) float64 {
	const n = 32
	in := 0
	inside := make([]bool, n)
	step := j.Box.Width() / n
	for y := range n {
		j.InsideRow(j.Box.North-(float64(y)+0.5)*j.Box.Height()/n, j.Box.West+0.5*step, step, inside)
		for _, ok := range inside {
			if ok {
				in++
			}
		}
	}
	return float64(in) / n / n
}

// Export writes the zipped tileset subset, the three thumbnails and the
// METADATA. Progress counts zip entries, then thumbnails.
func (e *Exporter) Export(ctx context.Context, j export.Job, out exporttask.Output) ([]exporttask.Artifact, error) {
	p, err := e.plan(j)
	if err != nil {
		return nil, err
	}
	base := exportio.FileBase(j.Record.ID)
	entries := int64(len(p.uris) + 1)
	total := entries + 3
	if err := out.Progress(0, total); err != nil {
		return nil, err
	}
	model, err := exportio.Write(ctx, out, base+".zip", exporttask.Artifact3DModel, func(w io.Writer) error {
		return writeZip(ctx, w, p.dir, &p.subset, p.uris, func(done int) error {
			return out.Progress(int64(done), total)
		})
	})
	if err != nil {
		return nil, wrap(err)
	}
	arts := []exporttask.Artifact{model}
	tris, err := loadTriangles(p.dir, leaves(&p.subset.Root))
	if err != nil {
		return nil, exporttask.Permanent("the 3D record's tile content is corrupt", err)
	}
	for i, th := range []struct {
		long int
		typ  exporttask.ArtifactType
		name string
	}{
		{thumbSmall, exporttask.ArtifactThumbnailsSmall, "thumbnail-small.png"},
		{thumbMedium, exporttask.ArtifactThumbnailsMedium, "thumbnail-medium.png"},
		{thumbLarge, exporttask.ArtifactThumbnailsLarge, "thumbnail-large.png"},
	} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, render(j, tris, th.long)); err != nil {
			return nil, fmt.Errorf("tiles3d: thumbnail: %w", err)
		}
		a, err := exportio.Write(ctx, out, th.name, th.typ, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
		if err != nil {
			return nil, wrap(err)
		}
		arts = append(arts, a)
		if err := out.Progress(entries+int64(i)+1, total); err != nil {
			return nil, err
		}
	}
	meta, err := exportio.WriteJSON(ctx, out, "metadata.json", exporttask.ArtifactMetadata, p.metadata(j, arts))
	if err != nil {
		return nil, wrap(err)
	}
	return append(arts, meta), nil
}

// wrap adds the package's name to an error, keeping permanent errors
// recognisable through errors.As.
func wrap(err error) error { return fmt.Errorf("tiles3d: %w", err) }
