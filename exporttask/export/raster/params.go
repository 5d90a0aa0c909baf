package raster

import (
	"encoding/json"
	"fmt"
	"math"

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
)

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
