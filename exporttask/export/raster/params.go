package raster

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// The export parameters this package reads from a request's parameters;
// others are ignored.
const (
	// ParamMaxZoom is the deepest level to export: an integer within the
	// record's levels. Default: the record's deepest level.
	ParamMaxZoom = "maxZoom"
	// ParamMaxResolutionDeg is the coarsest pixel size wanted, in degrees:
	// the export stops at the first level whose pixels are this small or
	// smaller (the record's deepest level when none is). A positive number;
	// not together with maxZoom.
	ParamMaxResolutionDeg = "maxResolutionDeg"
	// ParamTileFormat is how tiles rendered from an imagery record (a
	// GeoTIFF source) are encoded: "PNG" (transparent where there is no
	// data), "JPEG" (quality 75, GDAL's default; black where there is no
	// data) or "AUTO" (JPEG where a tile is opaque, PNG elsewhere, as
	// GDAL's TILE_FORMAT=AUTO). Default: the record's (AUTO for a
	// JPEG-compressed source, else PNG). Records of tile pyramids copy
	// their tiles as they are and refuse it.
	ParamTileFormat = "tileFormat"
)

// tileFormatParam returns the tile format of an export of rec.
func tileFormatParam(rec catalog.Record, params map[string]any) (string, error) {
	v, ok := params[ParamTileFormat]
	imagery := rec.Source != nil && rec.Source.Format == FormatGTiff
	if !ok {
		if imagery && rec.Source.TileFormat != "" {
			return rec.Source.TileFormat, nil
		}
		return TilePNG, nil
	}
	if !imagery {
		return "", fieldError("/parameters/"+ParamTileFormat,
			"applies to records rendered from imagery only; this record's tiles are copied as they are")
	}
	s, _ := v.(string)
	switch f := strings.ToUpper(s); f {
	case TilePNG, TileJPEG, TileAuto:
		return f, nil
	}
	return "", fieldError("/parameters/"+ParamTileFormat, "must be PNG, JPEG or AUTO, got %v", v)
}

// exportLevels returns the levels to export for rec and the request's
// parameters: rec.MinZoom up to the requested maximum. A bad parameter is
// a *exporttask.ValidationError naming it.
func exportLevels(rec catalog.Record, params map[string]any) (minZoom, maxZoom int, err error) {
	z, hasZoom := params[ParamMaxZoom]
	res, hasRes := params[ParamMaxResolutionDeg]
	switch {
	case hasZoom && hasRes:
		return 0, 0, fieldError("/parameters/"+ParamMaxResolutionDeg,
			"give either %s or %s, not both", ParamMaxZoom, ParamMaxResolutionDeg)
	case hasZoom:
		f, ok := number(z)
		if !ok || f != math.Trunc(f) || f < float64(rec.MinZoom) || f > float64(rec.MaxZoom) {
			return 0, 0, fieldError("/parameters/"+ParamMaxZoom,
				"must be an integer from %d to %d (the record's levels), got %v", rec.MinZoom, rec.MaxZoom, z)
		}
		return rec.MinZoom, int(f), nil
	case hasRes:
		f, ok := number(res)
		if !ok || !(f > 0) || math.IsInf(f, 0) {
			return 0, 0, fieldError("/parameters/"+ParamMaxResolutionDeg,
				"must be a positive number of degrees, got %v", res)
		}
		for l := rec.MinZoom; l <= rec.MaxZoom; l++ {
			if pixelDegrees(l) <= f*(1+1e-9) {
				return rec.MinZoom, l, nil
			}
		}
	}
	return rec.MinZoom, rec.MaxZoom, nil
}

// number reads a JSON number decoded into any of Go's usual forms.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsNaN(n)
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// fieldError returns a ValidationError with one problem at pointer.
func fieldError(pointer, format string, args ...any) error {
	return exporttask.NewValidationError(exporttask.FieldError{Pointer: pointer, Message: fmt.Sprintf(format, args...)})
}
