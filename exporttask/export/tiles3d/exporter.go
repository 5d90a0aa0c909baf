package tiles3d

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// Options configure an [Exporter].
type Options struct {
	// BytesPerSecond is the throughput the time estimate assumes, in bytes
	// of tile content copied into the zip per second, beyond
	// thumbnailSeconds for the thumbnails and metadata: a quiet machine's
	// speed, which export.Exporter scales by what its exports really take
	// (see export.Exporter.Estimate). Default 100 MB/s: bench/estimates
	// exported the whole demo record at levels 7..12 (32 MB) and a 0.4°
	// box of it (6.3 MB) in 0.3 s each on the shared 2-core machine at a
	// load average of 1.4, and in 2.3 to 8.4 s at load averages of 28 to
	// 36 (bench/README.md). Both are estimated 1 s, the least an estimate
	// says.
	BytesPerSecond float64
}

// thumbnailSeconds is what the time estimate allows for rendering the
// three thumbnails and writing the metadata, whatever the export's size
// (see Options.BytesPerSecond).
const thumbnailSeconds = 0.5

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
	opts    Options
	sources *sourceCache // the tilesets loaded, by identity
}

var _ export.Engine = (*Exporter)(nil)

// New returns an Exporter with the options' defaults filled in.
func New(opts Options) *Exporter {
	if !(opts.BytesPerSecond > 0) {
		opts.BytesPerSecond = 100e6
	}
	return &Exporter{opts: opts, sources: &sourceCache{}}
}

// plan is what an export of a job writes.
type plan struct {
	dir string     // the source tileset directory
	src *source    // the source
	sel *selection // what the export keeps of it
}

// sourceDir returns the tileset directory of rec: its registered source,
// checked to be unchanged, or for a record without one the demo layout's
// Location/tileset.
func sourceDir(rec catalog.Record) (string, error) {
	if rec.Source == nil {
		return filepath.Join(rec.Location, SourceDir), nil
	}
	return export.SourcePath(rec, TilesetFile)
}

func (e *Exporter) plan(ctx context.Context, j export.Job) (*plan, error) {
	if j.Box().Empty() || j.Box().Width() == 0 || j.Box().Height() == 0 {
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: "meets the record only along its edge or at a corner: the area to export has no extent"})
	}
	limit, err := levelLimit(j.Record(), j.Request().Parameters)
	if err != nil {
		return nil, err
	}
	dir, err := sourceDir(j.Record())
	if err != nil {
		return nil, err
	}
	src, err := e.sources.load(ctx, dir)
	if err != nil {
		var se *export.SourceError
		if errors.As(err, &se) {
			return nil, export.Permanent("the 3D record's tileset cannot be exported: "+inside(dir, se), se)
		}
		return nil, wrap(err)
	}
	sel, ok, err := src.selectTiles(func(b geom.BBox) bool { return j.IntersectsBox(b) }, limit)
	if err != nil {
		return nil, wrap(err)
	}
	if !ok {
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: fmt.Sprintf("meets none of the tiles of the 3D record's tileset (the area to export is %s)", boxText(j.Box()))})
	}
	return &plan{dir: src.dir, src: src, sel: sel}, nil
}

// Estimate forecasts the export from the tiles the job selects: the bytes
// of their content files (from the file system) plus the zip's headers,
// the cut tileset JSON files, the thumbnails (by their opaque area) and
// the METADATA. A bad maxZoom parameter is a *exporttask.ValidationError
// naming it.
func (e *Exporter) Estimate(ctx context.Context, j export.Job) (export.Estimate, error) {
	p, err := e.plan(ctx, j)
	if err != nil {
		return export.Estimate{}, err
	}
	root, err := sourcefs.OpenRoot(p.dir)
	if err != nil {
		return export.Estimate{}, contentFault(err)
	}
	defer root.Close()
	var content int64
	size := int64(zipEnd)
	for _, u := range p.sel.files {
		st, err := root.StatFile(u)
		if err != nil {
			return export.Estimate{}, contentFault(err)
		}
		content += st.Size()
		size += zipOverhead + 2*int64(len(u))
	}
	size += content
	for _, js := range p.sel.jsons {
		size += zipOverhead + 2*int64(len(js.name)) + int64(float64(len(js.data))*tilesetDeflateRatio)
	}
	size += thumbnailEstimate(j, p.sel.leaves)
	roi, err := exportio.MarshalIndent(exportio.ROI(j.Request(), j.Record()))
	if err != nil {
		return export.Estimate{}, fmt.Errorf("tiles3d: %w", err)
	}
	size += 2*int64(len(roi)) + metadataAllowance
	secs := int64(math.Ceil(thumbnailSeconds + float64(content)/e.opts.BytesPerSecond + j.MaskTime(int64(len(p.sel.files))+thumbSmall+thumbMedium+thumbLarge, 2*thumbLarge*thumbLarge).Seconds()))
	return export.Estimate{Size: size, Time: max(secs, 1), Artifacts: producedTypes()}, nil
}

// producedTypes are the types of the artifacts Export writes, in its
// order: the 3D Tiles zip, the three thumbnails, the METADATA.
func producedTypes() []exporttask.ArtifactType {
	return []exporttask.ArtifactType{exporttask.Artifact3DModel, exporttask.ArtifactThumbnailsSmall,
		exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge, exporttask.ArtifactMetadata}
}

// thumbnailEstimate forecasts the bytes of the three thumbnails: their
// pixels that are drawn (inside the area and inside a leaf tile's region)
// at pngBytesPerPixel, measured on the demo's hillshaded terrain; flatter
// content compresses better, so this is an upper bound for most tilesets.
func thumbnailEstimate(j export.Job, leaves []*node) int64 {
	drawn := drawnFraction(j, leaves)
	var size int64
	for _, long := range []int{thumbSmall, thumbMedium, thumbLarge} {
		w, h := thumbSize(j.Box(), long)
		size += int64(float64(w*h)*drawn*pngBytesPerPixel) + 100
	}
	return size
}

// drawnFraction estimates the share of j's box inside its area and inside
// some leaf's region from a 32×32 grid of samples.
func drawnFraction(j export.Job, leaves []*node) float64 {
	const n = 32
	in := 0
	inside := make([]bool, n)
	step := j.Box().Width() / n
	boxes := make([]geom.BBox, len(leaves))
	for i, l := range leaves {
		boxes[i] = l.region.box()
	}
	for y := range n {
		lat := j.Box().North - (float64(y)+0.5)*j.Box().Height()/n
		j.InsideRow(lat, j.Box().West+0.5*step, step, inside)
		for x, ok := range inside {
			if !ok {
				continue
			}
			lon := j.Box().West + (float64(x)+0.5)*step
			for _, b := range boxes {
				if b.ContainsPoint(lon, lat) {
					in++
					break
				}
			}
		}
	}
	return float64(in) / n / n
}

// Export writes the zipped tileset subset, the three thumbnails and the
// METADATA. Progress counts zip entries, then thumbnails.
func (e *Exporter) Export(ctx context.Context, j export.Job, out export.Output) ([]exporttask.Artifact, error) {
	p, err := e.plan(ctx, j)
	if err != nil {
		var ve *exporttask.ValidationError
		if errors.As(err, &ve) {
			return nil, export.Permanent(err.Error(), err)
		}
		return nil, err
	}
	base := exportio.FileBase(j.Record().ID)
	entries := int64(len(p.sel.jsons) + len(p.sel.files))
	total := entries + 3
	if err := out.Progress(0, total); err != nil {
		return nil, err
	}
	model, err := exportio.Write(ctx, out, base+".zip", exporttask.Artifact3DModel, func(w io.Writer) error {
		return writeZip(ctx, w, p.dir, p.sel, func(done int) error {
			return out.Progress(int64(done), total)
		})
	})
	if err != nil {
		return nil, wrap(err)
	}
	arts := []exporttask.Artifact{model}
	tris, meshes, err := p.triangles(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, contentFault(err)
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
		// Each thumbnail is drawn and encoded in a turn at CPU work of
		// its own (see paced).
		var buf bytes.Buffer
		err := paced(ctx, func() error {
			var img *image.NRGBA
			if meshes {
				var err error
				if img, meshes, err = render(ctx, j, tris, th.long); err != nil {
					return err
				}
			}
			if !meshes {
				img = renderFootprint(j, p.sel.leaves, th.long)
			}
			if err := png.Encode(&buf, img); err != nil {
				return fmt.Errorf("tiles3d: thumbnail: %w", err)
			}
			return nil
		})
		if err != nil {
			return nil, err
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
	meta, err := exportio.WriteJSON(ctx, out, "metadata.json", exporttask.ArtifactMetadata, p.metadata(j, arts, time.Now()))
	if err != nil {
		return nil, wrap(err)
	}
	return append(arts, meta), nil
}

// inside is the message of se, a problem of a file of the tileset
// directory dir, with the file named by its path inside dir.
func inside(dir string, se *export.SourceError) string {
	c := *se
	if rel, err := filepath.Rel(dir, se.File); err == nil && !strings.HasPrefix(rel, "..") {
		c.File = filepath.ToSlash(rel)
	} else {
		c.File = filepath.Base(se.File)
	}
	return c.Error()
}

// contentFault is the permanent failure of an export whose tile content
// cannot be read; err comes from sourcefs, whose messages name files
// inside the tileset only.
func contentFault(err error) error {
	var fe *sourcefs.Error
	if errors.As(err, &fe) {
		return export.Permanent("the 3D record's tile content cannot be read: "+fe.Error(), err)
	}
	return export.Permanent("the 3D record's tile content cannot be read", err)
}

// wrap adds the package's name to an error, keeping permanent errors
// recognisable through errors.As.
func wrap(err error) error { return fmt.Errorf("tiles3d: %w", err) }

// boxText writes b for people: longitudes, then latitudes.
func boxText(b geom.BBox) string {
	return fmt.Sprintf("lon %g..%g, lat %g..%g", b.West, b.East, b.South, b.North)
}
