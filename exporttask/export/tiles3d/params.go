package tiles3d

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// ParamMaxZoom is the export parameter that names the deepest level to
// export: an integer within the record's levels (MinZoom to MaxZoom).
// Default: the record's deepest level. Tiles below it are left out, and so
// is an external tileset whose root would be below it. Other parameters
// are ignored.
const ParamMaxZoom = "maxZoom"

// levelLimit returns the deepest tile level (the main root is level 0) to
// export for rec and the request's parameters. A registered tileset's
// levels are tile levels (Inspect gives MinZoom 0, MaxZoom the deepest
// level); in a record without a Source (the demo layout) level MinZoom is
// the root's children, so level z is tile level z - MinZoom + 1. A bad
// parameter is a *exporttask.ValidationError naming it.
func levelLimit(rec catalog.Record, params map[string]any) (int, error) {
	offset := 0
	if rec.Source == nil {
		offset = 1
	}
	z, ok := params[ParamMaxZoom]
	if !ok {
		return rec.MaxZoom - rec.MinZoom + offset, nil
	}
	f, isNum := number(z)
	if !isNum || f != math.Trunc(f) || f < float64(rec.MinZoom) || f > float64(rec.MaxZoom) {
		return 0, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/parameters/" + ParamMaxZoom,
			Message: fmt.Sprintf("must be an integer from %d to %d (the record's levels), got %v", rec.MinZoom, rec.MaxZoom, z)})
	}
	return int(f) - rec.MinZoom + offset, nil
}

// number reads a JSON number decoded into any of Go's usual forms.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsNaN(n)
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
