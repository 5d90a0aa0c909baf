package exporttask

import (
	"context"
	"errors"
)

// Record is one catalog record: a product that tasks export. A [Catalog]
// returns it; exporters read its data from Location.
type Record struct {
	// ID is the record's UUID, in canonical lower case.
	ID string `json:"id"`
	// Domain is the kind of product; a request naming another domain is
	// refused.
	Domain Domain `json:"domain"`
	// Title names the record for people.
	Title string `json:"title,omitempty"`
	// Footprint is the area the record covers: a Polygon or MultiPolygon in
	// WGS 84 longitude/latitude. An export covers the request's region of
	// interest intersected with it, or all of it without a region.
	Footprint *Geometry `json:"footprint"`
	// MinZoom and MaxZoom are the tile levels a RASTER or 3D record holds
	// (EPSG:4326 tile grid, two tiles at level 0). Zero for a DEM.
	MinZoom int `json:"minZoom,omitempty"`
	MaxZoom int `json:"maxZoom,omitempty"`
	// Resolution is a DEM's grid spacing in degrees; zero for the others.
	Resolution float64 `json:"resolution,omitempty"`
	// Location says where the record's data is, in the catalog's own terms
	// (for the file catalog, the record's directory).
	Location string `json:"-"`
}

// Catalog looks records up. Implementations must be safe for concurrent use.
type Catalog interface {
	// Record returns the record with the given id. An unknown id is an
	// error that wraps [ErrRecordNotFound].
	Record(ctx context.Context, id string) (Record, error)
}

// ErrRecordNotFound is the error a [Catalog] returns for an unknown record;
// the server answers 404 with a problem naming /catalogRecordID.
var ErrRecordNotFound = errors.New("catalog record not found")
