package catalog

import (
	"errors"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Record is one catalog record: a product that tasks export. A catalog (an
// export.Catalog, such as [Catalog]) returns it; exporters read its data
// from Location.
type Record struct {
	// ID is the record's UUID, in canonical lower case.
	ID string `json:"id"`
	// Domain is the kind of product; a request naming another domain is
	// refused.
	Domain exporttask.Domain `json:"domain"`
	// Title names the record for people.
	Title string `json:"title,omitempty"`
	// Footprint is the area the record covers: a Polygon or MultiPolygon in
	// WGS 84 longitude/latitude. An export covers the request's region of
	// interest intersected with it, or all of it without a region.
	Footprint *exporttask.Geometry `json:"footprint"`
	// MinZoom and MaxZoom are the tile levels a RASTER or 3D record holds
	// (EPSG:4326 tile grid, two tiles at level 0). Zero for a DEM.
	MinZoom int `json:"minZoom,omitempty"`
	MaxZoom int `json:"maxZoom,omitempty"`
	// Resolution is a DEM's grid spacing in degrees; zero for the others.
	Resolution float64 `json:"resolution,omitempty"`
	// Source is where the record's data is and how it was found when the
	// record was registered. Nil for a record written before sources were
	// registered; exporters then read their domain's fixed layout under
	// Location.
	Source *Source `json:"source,omitempty"`
	// Location says where the record's data is, in the catalog's own terms
	// (for the file catalog, the record's directory).
	Location string `json:"-"`
}

// Source is a record's source data: a file (a GeoTIFF, a GeoPackage)
// or a directory (a tile pyramid, a 3D Tiles tileset), left where it was
// registered. Size, ModTime, Content and Quick are those of the file, or
// of the directory's index file (tilemapresource.xml, tileset.json), when
// the record was registered: an exporter that finds another size or
// content fails the export with a permanent error, as the data has
// changed under the record (see [Source.Check] for the rule).
type Source struct {
	// Path is the source's absolute path, or a path relative to the
	// record's directory for a source copied into it.
	Path string `json:"path"`
	// Format names what Path holds: "GTiff" (DEM, or RASTER imagery),
	// "GPKG", "TMS" or "XYZ" (RASTER), "3DTILES" (3D).
	Format string `json:"format"`
	// Table is the tile table of a GPKG source.
	Table string `json:"table,omitempty"`
	// TileFormat is how tiles rendered from an imagery source ("GTiff"
	// format of a RASTER record) are encoded unless a request says
	// otherwise: "PNG", "JPEG" or "AUTO" (JPEG where a tile is opaque,
	// PNG elsewhere). Empty for other sources.
	TileFormat string `json:"tileFormat,omitempty"`
	// Size is the byte size of the file Path names (or of the directory's
	// index file) at registration.
	Size int64 `json:"size"`
	// ModTime is that file's modification time at registration, or the
	// one a later check found with the same content ([Refresh]).
	ModTime time.Time `json:"modTime"`
	// Content is the content fingerprint of the file Size and ModTime are
	// those of: the hex SHA-256 of the whole file (of the directory's
	// sorted entry names for a tile directory without an index file),
	// computed once at registration and again only when the file's
	// modification time is not ModTime (see [Source.Check]). Empty for a
	// record registered before fingerprints.
	Content string `json:"content,omitempty"`
	// Quick is the quick fingerprint of that file: the hex SHA-256 of its
	// size and its first and last [QuickBytes], checked on every use of a
	// file whose size and modification time are those recorded.
	Quick string `json:"quick,omitempty"`
	// WALSize and WALModTime are those of a GPKG source's write-ahead
	// log (the file Path with "-wal" appended) at registration, zero when
	// it had none: SQLite readers see the tiles written there, so the log
	// is part of the data (see [Source.Version]).
	WALSize    int64     `json:"walSize,omitempty"`
	WALModTime time.Time `json:"walModTime,omitzero"`
}

// ErrNotFound is the error a catalog returns for an unknown record;
// the server answers 404 with a problem naming /catalogRecordID.
var ErrNotFound = errors.New("catalog record not found")
