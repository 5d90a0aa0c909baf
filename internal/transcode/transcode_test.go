package transcode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTrip converts canonical JSON to YAML and back, which must give the
// same bytes: same values, same key order, same formatting.
func roundTrip(t *testing.T, doc []byte) []byte {
	t.Helper()
	y, err := JSONToYAML(doc)
	require.NoError(t, err)
	back, _, err := yamlToJSON(Raw{Source: "round-trip.yaml", Data: y})
	require.NoError(t, err, "YAML written by JSONToYAML must parse:\n%s", y)
	assert.Equal(t, string(doc), string(back), "JSON -> YAML -> JSON changed the document; YAML was:\n%s", y)
	return y
}

func TestYAMLRoundTripOfTestdata(t *testing.T) {
	files, err := filepath.Glob("../../testdata/*/*.yaml")
	require.NoError(t, err)
	more, err := filepath.Glob("../../testdata/*.yaml")
	require.NoError(t, err)
	files = append(files, more...)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			doc, _, err := yamlToJSON(Raw{Source: f, Data: data})
			require.NoError(t, err)
			require.True(t, json.Valid(doc))
			roundTrip(t, doc)
		})
	}
}

func TestYAMLRoundTripOfTrickyStrings(t *testing.T) {
	values := []any{
		"", " ", "y", "Y", "yes", "No", "on", "OFF", "true", "null", "~", "-", "- x", "? x", ": x",
		"a: b", "a #b", "a#b", "#x", "x:", "0x1F", "0o17", "017", "1e3", ".5", "+1", "-1", "1_000",
		"2001-12-14", "12:30:45", ".inf", ".NaN", "<<", "=", "@x", "`x`", "!tag", "&anchor", "*alias",
		"%x", "|", ">", "'q'", "\"q\"", "tab\there", "line\nbreak", "trailing\n", "two\n\n", "\nleading",
		"  indented\nline", "ends space \nx", "crlf\r\nx", "nul\x00byte", "del\x7f", "bom\ufeff",
		"sep\u2028line", "é ü 中文 🎉", "back\\slash", "{braces}", "[brackets]", "a,b", "http://x.y/z?q=1#f",
		"/pets/{id}", "$ref", "1.0.0", "3.0.3", "1.0", "1..0", "1.0.", "1.2.3.4", "#/components/schemas/Pet", "key: value\n  - item\n", "end\n\n\n",
	}
	for _, v := range values {
		doc, err := json.MarshalIndent(map[string]any{"openapi": "3.0.0", "v": v, v.(string) + "k": []any{v, map[string]any{"k": v}}}, "", "  ")
		require.NoError(t, err)
		canon, err := IndentJSON(Raw{Source: "x.json", Data: doc})
		require.NoError(t, err)
		y, err := JSONToYAML(canon)
		require.NoError(t, err)
		back, _, err := yamlToJSON(Raw{Source: "x.yaml", Data: y})
		require.NoError(t, err, "value %q, YAML:\n%s", v, y)
		var want, got any
		require.NoError(t, json.Unmarshal(canon, &want))
		require.NoError(t, json.Unmarshal(back, &got))
		assert.Equal(t, want, got, "value %q, YAML:\n%s", v, y)
	}
}

func TestYAMLToJSONKeepsOrderAndYAML12Scalars(t *testing.T) {
	src := "openapi: 3.0.0\nzeta: 1\ny: yes\nalpha: on\nn: no\nnum: 0x1F\nfloat: 1.50\nexp: 1e3\nnull: ~\ndate: 2024-01-02\n200: ok\n"
	doc, _, err := yamlToJSON(Raw{Source: "s.yaml", Data: []byte(src)})
	require.NoError(t, err)
	assert.Equal(t, `{
  "openapi": "3.0.0",
  "zeta": 1,
  "y": "yes",
  "alpha": "on",
  "n": "no",
  "num": 31,
  "float": 1.50,
  "exp": 1e3,
  "null": null,
  "date": "2024-01-02",
  "200": "ok"
}
`, string(doc))
}

func TestYAMLAnchorsAndMergeKeys(t *testing.T) {
	src := "base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n  z: *b\n"
	doc, _, err := yamlToJSON(Raw{Source: "a.yaml", Data: []byte(src)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"base":{"x":1,"y":2},"use":{"y":3,"z":{"x":1,"y":2},"x":1}}`, string(doc))
}

func TestYAMLErrorsNameTheLine(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"duplicate key", "a: 1\nb: 2\na: 3\n", `s.yaml:3: duplicate key "a" (first at line 1)`},
		{"infinity", "a:\n  b: .inf\n", "s.yaml:2: .inf cannot be written as JSON"},
		{"bad indentation", "a:\n  b: 1\n c: 2\n", "s.yaml:2: invalid YAML"},
		{"two documents", "a: 1\n---\nb: 2\n", "s.yaml:2: the file holds more than one YAML document"},
		{"complex key", "? [a, b]\n: 1\n", "s.yaml:1: a mapping key must be a scalar"},
		{"list", "- a\n- b\n", "s.yaml:1: the document must be a mapping (an object) at the top level, not a list"},
		{"scalar", "hello\n", "not a string"},
		{"empty", "\n# only a comment\n", "not an empty document"},
		{"alias bomb", aliasBomb(), "expands to over"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := yamlToJSON(Raw{Source: "s.yaml", Data: []byte(c.src)})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.ErrorIs(t, err, ErrInvalidSpec)
		})
	}
}

// aliasBomb is a small document whose aliases expand exponentially.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		prev := "*a" + string(rune('0'+i-1))
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" +
			strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	return b.String()
}

func TestIndentJSONReportsTheLine(t *testing.T) {
	_, err := IndentJSON(Raw{Source: "s.json", Data: []byte("{\n  \"a\": 1,\n  \"b\": ,\n}")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s.json:3: invalid JSON")
}

func TestIsJSONNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "12", "1.5", "1e3", "1E+3", "-2.5e-3"} {
		assert.True(t, isJSONNumber(s), s)
	}
	for _, s := range []string{"", "-", "01", "+1", ".5", "1.", "1e", "0x1F", "1_000", "inf"} {
		assert.False(t, isJSONNumber(s), s)
	}
}

// FuzzJSONToYAML checks that any JSON document survives the trip to YAML and
// back unchanged.
func FuzzJSONToYAML(f *testing.F) {
	for _, s := range []string{`{"a":"y"}`, `{"a":["x",{"b":null}],"c":1.5e3}`, `{"s":"l1\nl2\n"}`, `{"":{"-":"- x"}}`, `[]`, `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		canon, err := IndentJSON(Raw{Source: "f.json", Data: []byte(s)})
		if err != nil || len(canon) > 64<<10 {
			return // deep nesting makes YAML grow quadratically: keep inputs fast
		}
		// Normalise string escapes the way the YAML reader writes them.
		var v any
		if json.Unmarshal(canon, &v) != nil {
			return
		}
		y, err := JSONToYAML(canon)
		require.NoError(t, err)
		var got any
		back, _, err := yamlToJSON(Raw{Source: "f.yaml", Data: y})
		if err != nil {
			// Only mappings are accepted as documents; a top-level scalar or
			// list is refused, which is right.
			require.NotEqual(t, byte('{'), firstNonSpace(canon), "YAML:\n%s\nerror: %v", y, err)
			return
		}
		require.NoError(t, json.Unmarshal(back, &got))
		require.Equal(t, v, got, "YAML:\n%s", y)
	})
}
