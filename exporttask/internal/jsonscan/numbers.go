package jsonscan

import (
	"encoding/json"
	"strconv"
)

// ExactNumbers makes the numbers in a free-form object (keywords,
// parameters, feature properties) keep the text they were written with,
// at any depth. It expects the object as decoded with
// [json.Decoder.UseNumber], and changes it in place: a number stays a
// [json.Number] when a float64 would write it back differently
// (9007199254740993, which a float64 reads as …992; 1.0; 1e2), and
// becomes a float64 otherwise (0.5, 42, -3.25), which is what most code
// reading these maps expects. Either way it encodes to its original text,
// so a task reads back as the client wrote it and the store's dedup key
// tells such requests apart.
//
// exporttask.DecodeCreateRequest and exporttask.Task.UnmarshalJSON call
// it.
func ExactNumbers(m map[string]any) {
	for k, v := range m {
		m[k] = exactValue(v)
	}
}

// exactValue is ExactNumbers for one value.
func exactValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return x
		}
		if b, err := json.Marshal(f); err == nil && string(b) == string(x) {
			return f
		}
		return x
	case map[string]any:
		ExactNumbers(x)
	case []any:
		for i, e := range x {
			x[i] = exactValue(e)
		}
	}
	return v
}
