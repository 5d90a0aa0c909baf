package transcode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

const minimalHead = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"

func TestYAML12Integers(t *testing.T) {
	doc := minimalHead + "a: 017\nb: 0o17\nc: 0x1F\nd: +12\ne: -007\nf: 1_000\ng: 0b11\nh: .5\ni: 1.\nj: 01.50e+3\nk: 123456789012345678901234567890\nl: '017'\n"
	out, _, err := yamlToJSON(Raw{Source: "ints.yaml", Data: []byte(doc)})
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, yaml.Unmarshal(out, &got))
	s := string(out)
	assert.Contains(t, s, `"a": 17,`)
	assert.Contains(t, s, `"b": 15,`)
	assert.Contains(t, s, `"c": 31,`)
	assert.Contains(t, s, `"d": 12,`)
	assert.Contains(t, s, `"e": -7,`)
	assert.Contains(t, s, `"f": "1_000",`, "1_000 is a string in YAML 1.2")
	assert.Contains(t, s, `"g": "0b11",`, "0b11 is a string in YAML 1.2")
	assert.Contains(t, s, `"h": 0.5,`)
	assert.Contains(t, s, `"i": 1,`)
	assert.Contains(t, s, `"j": 1.50e3,`)
	assert.Contains(t, s, `"k": 123456789012345678901234567890,`)
	assert.Contains(t, s, `"l": "017"`)
}

func TestLongKeysGiveValidYAML(t *testing.T) {
	long := strings.Repeat("k", 1500)
	quoted := strings.Repeat("é:", 600)
	doc := fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, %q: {%q: [1, {%q: "v"}]}, "after": 2}`, long, quoted, long)
	canon, err := IndentJSON(Raw{Source: "long.json", Data: []byte(doc)})
	require.NoError(t, err)
	y, err := JSONToYAML(canon)
	require.NoError(t, err)
	assert.Contains(t, string(y), "? "+long+"\n:", "a long key is written as an explicit key")
	var back yaml.Node
	require.NoError(t, yaml.Unmarshal(y, &back), "the YAML must parse:\n%.300s", y)
	roundTrip(t, canon)
}

// mergeBomb nests merge keys: each level merges the previous one ten times,
// so the expansion grows ten-fold per level.
func mergeBomb(levels int) string {
	var b strings.Builder
	b.WriteString(minimalHead + "l0: &l0 {a: 1, b: 2}\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d\n  <<: [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		fmt.Fprintf(&b, "]\n  k%d: x\n", i)
	}
	return b.String()
}

func TestNestedMergesAreBounded(t *testing.T) {
	// A small nesting is fine...
	_, _, err := yamlToJSON(Raw{Source: "m.yaml", Data: []byte(mergeBomb(2))})
	require.NoError(t, err)

	// ...a deep one stops once the budget is spent, long before 10^12 steps.
	doc := []byte(mergeBomb(12))
	require.Less(t, len(doc), 1000)
	budget := newMergeBudget(len(doc))
	w := jsonWriter{limit: 64*len(doc) + 1<<20, merges: budget}
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal(doc, &n))
	err = w.value(n.Content[0], 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "merge keys (<<) expand to over")
	assert.LessOrEqual(t, budget.used, budget.limit+1000, "the work stops at the budget")
	assert.Less(t, budget.limit, 1<<20, "the budget is small for a small document")

	_, _, err = yamlToJSON(Raw{Source: "m.yaml", Data: doc})
	require.ErrorContains(t, err, "merge keys (<<) expand to over")
}
