package transcode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdIndent is what indentValidJSON must equal: json.Indent's output and a
// newline.
func stdIndent(t testing.TB, src []byte) []byte {
	var buf bytes.Buffer
	require.NoError(t, json.Indent(&buf, src, "", "  "))
	buf.WriteByte('\n')
	return buf.Bytes()
}

func TestIndentValidJSONMatchesJSONIndent(t *testing.T) {
	cases := []string{
		`{}`, `[]`, `{"a":{}}`, `{"a":[]}`, `[[],{}, [1]]`, "  \n{ \"a\" : 1 ,\"b\":[ true, false,null ] }  \n\t",
		`"s"`, ` 12 `, `-1.5e+3`, `true`, `null`, `{"k\"ey": "v\\\"al}]", "e": "\u00e9\n", "n": 0}`,
		"{\r\n\t\"deep\": {\"a\": {\"b\": {\"c\": [1, 2, {\"d\": []}]}}}\r\n}\r\n",
		`{"a":1}x`[:7], `[{"a":"]"},{"b":"{"}]`,
	}
	files, err := filepath.Glob("../../testdata/*/*.json")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		if json.Valid(b) {
			cases = append(cases, string(b))
		}
	}
	for _, c := range cases {
		require.True(t, json.Valid([]byte(c)), c)
		got := indentValidJSON([]byte(c), false)
		assert.Equal(t, string(stdIndent(t, []byte(c))), string(got), "%.80q", c)
		assert.Equal(t, len(got), cap(got), "%.80q: the slice is exactly its size", c)

		// Owned, with the spare byte os.ReadFile leaves: an input already
		// indented so is kept, the newline appended in place.
		owned := append(make([]byte, 0, len(c)+1), c...)
		got = indentValidJSON(owned, true)
		want := stdIndent(t, []byte(c))
		assert.Equal(t, string(want), string(got), "%.80q (owned)", c)
		canonical := string(want[:len(want)-1]) == c
		assert.Equal(t, canonical, &got[0] == &owned[:1][0], "%.80q: reused exactly when already indented", c)
	}
	canon := stdIndent(t, []byte(`{"a": [1, {"b": null}], "c": {}}`))
	canon = canon[:len(canon)-1]
	owned := append(make([]byte, 0, len(canon)+1), canon...)
	got := indentValidJSON(owned, true)
	require.Equal(t, string(canon)+"\n", string(got))
	assert.Same(t, &owned[:1][0], &got[0], "an indented document read from a file is not copied")
	notOwned := append(make([]byte, 0, len(canon)+1), canon...)
	got = indentValidJSON(notOwned, false)
	assert.NotSame(t, &notOwned[:1][0], &got[0], "the caller's bytes are never reused")
}

func FuzzIndentValidJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, {"b": null}], "c": "d\"}"}`, `[]`, ` 1 `, `{"x":{}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		assert.Equal(t, string(stdIndent(t, []byte(s))), string(indentValidJSON([]byte(s), true)))
	})
}
