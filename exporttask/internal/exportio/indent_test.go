package exportio

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestIndentAsEncodingJSON checks that values without arrays of numbers
// are laid out as json.MarshalIndent does, strings with brackets, quotes
// and escapes included.
func TestIndentAsEncodingJSON(t *testing.T) {
	for _, v := range []any{
		map[string]any{"a": []string{"x]", `q"[1,2]`, "\\"}, "b": map[string]any{}, "c": []any{}, "d": nil,
			"e": []any{map[string]any{"f": true}, []any{"g", []any{}}, false}, "h": "<&>"},
		[]any{},
		"plain",
		[]any{[]any{"1", "2"}, map[string]any{"k": []bool{true}}},
	} {
		want, err := json.MarshalIndent(v, "", "  ")
		require.NoError(t, err)
		got, err := MarshalIndent(v)
		require.NoError(t, err)
		assert.Equal(t, string(want)+"\n", string(got))
	}
}

// TestIndentKeepsNumbersOnOneLine checks arrays of numbers, and that the
// output reads back as the value.
func TestIndentKeepsNumbersOnOneLine(t *testing.T) {
	v := map[string]any{
		"bbox":   []float64{34.5, 31.25, -1e-7, 2e21},
		"empty":  []float64{},
		"nested": [][]float64{{1, 2}, {3}},
		"roi":    exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 31}}),
	}
	got, err := MarshalIndent(v)
	require.NoError(t, err)
	assert.Equal(t, `{
  "bbox": [34.5, 31.25, -1e-7, 2e+21],
  "empty": [],
  "nested": [
    [1, 2],
    [3]
  ],
  "roi": {
    "type": "Polygon",
    "coordinates": [
      [
        [34, 31],
        [35, 31],
        [35, 32],
        [34, 31]
      ]
    ]
  }
}
`, string(got))
	var back, want any
	require.NoError(t, json.Unmarshal(got, &back))
	compact, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(compact, &want))
	assert.Equal(t, want, back)
	var buf bytes.Buffer
	require.NoError(t, json.Compact(&buf, got))
	assert.Equal(t, string(compact), buf.String(), "the same JSON, only laid out")
}
