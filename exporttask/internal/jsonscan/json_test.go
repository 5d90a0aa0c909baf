package jsonscan

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExactNumbersKeepTheirText(t *testing.T) {
	var m map[string]any
	dec := NewDecoder([]byte(`{"big": 9007199254740993, "one": 1.0, "e": 1e2, "half": 0.5, "n": 42,
		"deep": {"list": [1.50, -3.25, {"x": 2E1}]}, "s": "1.0"}`))
	require.NoError(t, dec.Decode(&m))
	ExactNumbers(m)
	assert.Equal(t, json.Number("9007199254740993"), m["big"])
	assert.Equal(t, json.Number("1.0"), m["one"])
	assert.Equal(t, json.Number("1e2"), m["e"])
	assert.Equal(t, 0.5, m["half"])
	assert.Equal(t, 42.0, m["n"])
	assert.Equal(t, "1.0", m["s"])
	deep := m["deep"].(map[string]any)["list"].([]any)
	assert.Equal(t, json.Number("1.50"), deep[0])
	assert.Equal(t, -3.25, deep[1])
	assert.Equal(t, json.Number("2E1"), deep[2].(map[string]any)["x"])
	out, err := json.Marshal(m["deep"])
	require.NoError(t, err)
	assert.JSONEq(t, `{"list": [1.50, -3.25, {"x": 2E1}]}`, string(out))
}

func TestInvalidText(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		bad  bool
		at   int
		what string
	}{
		{raw: `"plain é \n \u00e9 \ud83d\ude00"`},
		{raw: "\"a\xffb\"", bad: true, at: 2, what: "not a UTF-8 sequence"},
		{raw: `"x\ud800y"`, bad: true, at: 2, what: "high surrogate"},
		{raw: `"\udc00"`, bad: true, at: 1, what: "low surrogate"},
	} {
		what, at := InvalidText([]byte(tc.raw))
		if !tc.bad {
			assert.Empty(t, what, tc.raw)
			continue
		}
		assert.Contains(t, what, tc.what, tc.raw)
		assert.Equal(t, tc.at, at, tc.raw)
	}
}

func TestApplyAndValueStart(t *testing.T) {
	data := []byte(`{"a": 1, "b": [2], "c": 3}`)
	edits := []Edit{
		{Start: ValueStart(data, 17), End: 25, Repl: `"":null`},
		{Start: ValueStart(data, 4), End: 7, Repl: "null"},
		{Start: 6, End: 7, Repl: "x"}, // inside the edit made: left out
	}
	assert.Equal(t, `{"a": null, "b": [2], "":null}`, string(Apply(data, edits)))
	assert.Equal(t, string(data), string(Apply(data, nil)))
	line, col := LineColumn([]byte("{\n  x"), 4)
	assert.Equal(t, [2]int{2, 3}, [2]int{line, col})
}
