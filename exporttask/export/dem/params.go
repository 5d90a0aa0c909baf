package dem

import (
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// ParamResampling is the task parameter choosing how an export of a
// source in a projected CRS computes its pixels: "bilinear" (the default)
// or "nearest" (see [Resampling]). An export of a source already in
// EPSG:4326 copies its pixels and ignores it, once it is valid. Other
// parameters are ignored.
const ParamResampling = "resampling"

// resamplingOf returns the resampling the request's parameters ask for,
// Bilinear when they do not; a value other than "bilinear" or "nearest"
// is a *exporttask.ValidationError at /parameters/resampling.
func resamplingOf(params map[string]any) (Resampling, error) {
	v, ok := params[ParamResampling]
	if !ok {
		return Bilinear, nil
	}
	if s, isText := v.(string); isText {
		switch r := Resampling(s); r {
		case Bilinear, Nearest:
			return r, nil
		}
	}
	return "", exporttask.NewValidationError(exporttask.FieldError{Pointer: "/parameters/" + ParamResampling,
		Message: fmt.Sprintf("must be %q or %q, got %s", Bilinear, Nearest, describeValue(v))})
}

// describeValue shows a parameter's value in a message: a string quoted,
// anything else by its JSON kind.
func describeValue(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 40 {
			x = strings.ToValidUTF8(x[:40], "") + "…"
		}
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	case bool:
		return fmt.Sprint(x)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return "a number"
}
