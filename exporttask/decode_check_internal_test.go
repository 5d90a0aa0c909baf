package exporttask

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/jsonscan"
)

// checkBodies reads the bodies package jsonscan compares its fast
// tokenizer with json.Decoder on, one Go-quoted string a line.
func checkBodies(t testing.TB) [][]byte {
	data, err := os.ReadFile(filepath.Join("internal", "jsonscan", "testdata", "bodies.txt"))
	require.NoError(t, err)
	var out [][]byte
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		b, err := strconv.Unquote(line)
		require.NoError(t, err, line)
		out = append(out, []byte(b))
	}
	return out
}

// checkOutcome is what the structural pass makes of a body.
type checkOutcome struct {
	Problems []FieldError
	Dropped  int
	Sound    bool
	Cleaned  string
	Nulled   map[string]bool
	Spans    map[string]span
}

func outcome(p *problems, c *checker) checkOutcome {
	return checkOutcome{Problems: p.list, Dropped: p.dropped, Sound: c.sound, Cleaned: string(c.cleaned()),
		Nulled: c.nulled, Spans: c.spans}
}

// checkBothWays runs the structural pass on body as DecodeCreateRequest
// does (fast tokens first) and with a json.Decoder only, and checks that
// both make the same of it.
func checkBothWays(t *testing.T, body []byte) {
	want := map[string]bool{"": true, "/domain": true, "/ROI/features/0/geometry/coordinates": true,
		"/webhook/0/url": true, "/keywords": true}
	var ps, pd problems
	slow := checkWith(&pd, body, want, jsonscan.NewDecoder(body))
	fast := checkCreateJSON(&ps, body, want)
	assert.Equal(t, outcome(&pd, slow), outcome(&ps, fast), "%q", body)
}

func TestStructuralPassIsTheSameWithFastTokens(t *testing.T) {
	for _, b := range checkBodies(t) {
		checkBothWays(t, b)
	}
}

// FuzzStructuralPass compares the structural pass reading with the fast
// tokenizer (as DecodeCreateRequest does) and with json.Decoder only, on
// arbitrary bodies.
func FuzzStructuralPass(f *testing.F) {
	for _, b := range checkBodies(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkBothWays(t, body)
	})
}
