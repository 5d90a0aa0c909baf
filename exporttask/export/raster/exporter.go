package raster

import (
	"context"
	"errors"
	"math"
	"os"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// DefaultTilesPerSecond is the export speed Estimate assumes for a
// GeoPackage source unless [Options] say otherwise; a directory source (a
// file opened and read per tile, then a row inserted from Go) is taken to
// be half as fast. It is a quiet machine's speed, which
// export.CatalogExporter scales by what its exports really take (see
// export.CatalogExporter.Estimate). On the shared 2-core machine at a load
// average of 2 to 5, bench/estimates exported 48,000 tiles of
// bench/rasterexport's GeoPackage (levels 10..13 of a 4° box, 566 MB) in
// 13.4 s from a cold page cache and in 2.8 s warm (3,600 and 17,000
// tiles/s), and bench/rasterexport copied all 205,166 tiles in 10 to 18 s
// (11,000 to 20,000 tiles/s); bench/README.md has the figures.
const DefaultTilesPerSecond = 10000

// DefaultImageryTilesPerSecond is the speed Estimate assumes for GeoTIFF
// imagery, whose tiles are rendered (blocks decoded, resampled, encoded)
// rather than copied: bench/rasterimagery's export of a 6,000² UTM JPEG
// COG wrote 1,089 tiles in 10.4 s (105 tiles/s, 8.8 s of CPU on 2 cores)
// at a load average of 5, and 21,009 tiles of its 28,000² source in 3m22s
// (104 tiles/s) at about the same load.
const DefaultImageryTilesPerSecond = 150

// Options configure an [Exporter].
type Options struct {
	// TempDir is where the GeoPackage is built before it is stored in
	// the output (moved where the output can take the file, see
	// [artifact.StoreFile]), when the job has no ScratchDir of its own. Default:
	// os.TempDir().
	TempDir string
	// TilesPerSecond is the speed Estimate's time assumes for a
	// GeoPackage source, half of it for a directory (imagery is
	// estimated at DefaultImageryTilesPerSecond). Default:
	// DefaultTilesPerSecond.
	TilesPerSecond float64
}

// Exporter exports RASTER records: it implements [export.Engine]. It is
// safe for concurrent use.
type Exporter struct {
	tempDir        string
	tilesPerSecond float64
	indexes        *indexCache
}

var _ export.Engine = (*Exporter)(nil)

// New returns an Exporter with opts, defaults filled in.
func New(opts Options) *Exporter {
	x := &Exporter{tempDir: opts.TempDir, tilesPerSecond: opts.TilesPerSecond, indexes: &indexCache{}}
	if x.tempDir == "" {
		x.tempDir = os.TempDir()
	}
	if !(x.tilesPerSecond > 0) {
		x.tilesPerSecond = DefaultTilesPerSecond
	}
	return x
}

// The overheads Estimate adds to the tiles' own bytes: the GeoPackage's
// tables, and per tile its row, index entry and the unused space of the
// pages that hold it. SQLite fills a blob's overflow pages whole and packs
// the rest into the table's leaf pages, so a tile wastes far less than
// half a page: the whole extent of a 205,166-tile GeoPackage of 12.6 kB
// tiles at levels 10..13 (bench/rasterexport's source) came out 886 bytes
// a tile above its tiles' bytes, and an export of 222,410 tiles of 5.4 kB
// about 540 (estimated 1.56 GB with 2,112 bytes a tile, 1.21 GB real).
const (
	gpkgBaseBytes    = 64 << 10
	gpkgBytesPerTile = 900
	metadataBytes    = 4 << 10
)

// Estimate counts the source tiles the job selects and their bytes. Size
// is those bytes plus the GeoPackage's overhead, the thumbnails (at the
// tiles' own bytes per pixel) and the metadata; Time assumes the
// Exporter's tiles per second. A bad maxZoom or maxResolutionDeg
// parameter is a *exporttask.ValidationError naming it.
//
// For a tile pyramid (GeoPackage, TMS, XYZ) the count comes from the
// record's selection index (see IndexName), kept in memory once read, not
// from the source: a create costs about the same on a source of a million
// tiles as on one of ten. A source with too many scattered tiles for an
// index, and GeoTIFF imagery, are counted as an export selects them.
func (x *Exporter) Estimate(ctx context.Context, j export.Job) (export.Estimate, error) {
	minZoom, maxZoom, err := exportLevels(j.Record(), j.Request().Parameters)
	if err != nil {
		return export.Estimate{}, err
	}
	format, err := tileFormatParam(j.Record(), j.Request().Parameters)
	if err != nil {
		return export.Estimate{}, err
	}
	src, err := openSource(ctx, j.Record())
	if err != nil {
		return export.Estimate{}, err
	}
	defer src.Close()
	src.useTileFormat(format)
	tiles, bytes, err := x.count(ctx, src, j, minZoom, maxZoom)
	if err != nil {
		return export.Estimate{}, unreadable(j.Record(), err)
	}
	size := gpkgBaseBytes + bytes + tiles*gpkgBytesPerTile + metadataBytes
	if tiles > 0 {
		perPixel := float64(bytes) / float64(tiles*TileSize*TileSize)
		size += int64(perPixel * thumbnailPixels(j))
	}
	rate := x.tilesPerSecond
	switch {
	case src.imagery != nil:
		rate = DefaultImageryTilesPerSecond
	case src.db == nil:
		rate /= 2 // a directory: see DefaultTilesPerSecond
	}
	secs := int64(math.Ceil(float64(tiles)/rate+j.MaskTime(tiles, int64(thumbnailPixels(j))).Seconds())) + 1
	return export.Estimate{Size: size, Time: secs, Artifacts: producedTypes()}, nil
}

// count returns the tiles of levels minZoom..maxZoom the job selects and
// their bytes: from the source's selection index when it has one, else
// from the source.
func (x *Exporter) count(ctx context.Context, src *source, j export.Job, minZoom, maxZoom int) (tiles, bytes int64, err error) {
	if src.imagery == nil {
		ix, err := x.indexes.load(ctx, j.Record(), src)
		switch {
		case err == nil:
			return ix.estimate(j, minZoom, maxZoom)
		case !errors.Is(err, errIndexTooLarge):
			return 0, 0, err
		}
	}
	sel, err := selectTiles(ctx, src, j, minZoom, maxZoom)
	if err != nil {
		return 0, 0, err
	}
	return sel.Tiles(), sel.Bytes(), nil
}

// producedTypes are the types of the artifacts Export writes, in its
// order: the GeoPackage, the thumbnails, the METADATA.
func producedTypes() []exporttask.ArtifactType {
	types := []exporttask.ArtifactType{exporttask.ArtifactGPKG}
	for _, t := range thumbnails() {
		types = append(types, t.Type)
	}
	return append(types, exporttask.ArtifactMetadata)
}

// thumbnailPixels is the number of pixels of the three thumbnails.
func thumbnailPixels(j export.Job) float64 {
	w, h := j.Box().Width(), j.Box().Height()
	aspect := math.Min(w, h) / math.Max(w, h)
	if !(aspect > 0) {
		aspect = 1
	}
	var n float64
	for _, t := range thumbnails() {
		n += float64(t.Size*t.Size) * aspect
	}
	return n
}

// MetadataName is the file name of the METADATA artifact.
const MetadataName = "metadata.json"

// exportIdentifier names the export's tile table for people.
func exportIdentifier(rec catalog.Record) string {
	if rec.Title != "" {
		return rec.Title
	}
	return "catalog record " + rec.ID
}
