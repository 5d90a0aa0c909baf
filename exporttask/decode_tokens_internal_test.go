package exporttask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenBodies are bodies for the comparisons of fastTokens with
// json.Decoder: well-formed ones the fast tokenizer reads, and others it
// must refuse.
var tokenBodies = []string{
	`{"catalogRecordID":"0b3c7f1e-0000-4000-8000-000000000001","domain":"RASTER","artifactCRS":"4326",` +
		`"ROI":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},` +
		`"geometry":{"type":"Polygon","coordinates":[[[34,31.9],[34.01,31.9],[34.01,31.91],[34,31.9]]]}}]},` +
		`"webhook":[{"url":"https://hooks.example.com/a","events":["TASK_COMPLETED"]}]}`,
	` { "domain" : "DEM" , "keywords" : { "a" : [ 1 , -0.5e+3 , true , false , null , "x" ] } } `,
	"{\n\t\"description\": \"\\u00e9\\ud83d\\ude00 \\\"q\\\" \\\\ \\/\",\r\n\"x\": \"\xc3\xa9\"}",
	`{"geometry": {"coordinates": [[[0, 0, 5], [1, 0]]], "type": "Polygon"}}`,
	`{"a": {"coordinates": 5}, "b": {"coordinates": "s"}, "c": {"coordinates": [1, [2, {"x": "]"}]]}}`,
	`{"parameters": {"n": 9007199254740993, "m": [1.0, 1e2, -0, 0.1E-2]}, "domain": 5, "x": {}}`,
	`{"keywords": {"a": 1, "a": {"b": [null, true, "x", 1.5e300]}}}`,
	`{"k": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
	`{"a/b~c": 1, "": 2, "Domain": "DEM"}`,
	`{"domain":"\xff"}`, `{"d": "a` + "\x01" + `"}`,
	"", " ", "{", "}", "[", "]", "null", `"x"`, "0", "-", "01", "1.", "1e", "{}", "{} {}", "{} x", `{"a":}`,
	`{"a" 1}`, `{,}`, `{"a":1,}`, `[1,]`, `[,1]`, `{"a":1 "b":2}`, `{"a":[1 2]}`, `{"a":tru}`, `{"a":nul}`,
	`{"a":[}`, `{"a":{]}`, `{"a":"x}`, `{"a":"\x"}`, `{1:2}`, `{"a":-01}`, `{"a":.5}`, `{"a":+1}`,
	`{"coordinates": [[[0,0]]]}x`, `{"geometry": {"coordinates": [[[0,0],]], "type": "Polygon"}}`,
}

// token is one step of a walk: the token (or error) and the offset after it.
type token struct {
	tok    string
	offset int64
}

// walkTokens reads every token of body with dec, as the structural pass
// does: More before each element or member, Decode for a member named
// "coordinates". It stops at the first error.
func walkTokens(dec tokenSource) []token {
	var out []token
	rec := func(tok json.Token, err error) bool {
		if err != nil {
			out = append(out, token{tok: "error", offset: dec.InputOffset()})
			return false
		}
		out = append(out, token{tok: fmt.Sprintf("%T %v", tok, tok), offset: dec.InputOffset()})
		return true
	}
	var value func(tok json.Token) bool
	value = func(tok json.Token) bool {
		d, ok := tok.(json.Delim)
		if !ok || (d != '{' && d != '[') {
			return true
		}
		for dec.More() {
			out = append(out, token{tok: "more", offset: dec.InputOffset()})
			tok, err := dec.Token()
			if !rec(tok, err) {
				return false
			}
			if d == '{' && tok == "coordinates" {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					out = append(out, token{tok: "error", offset: dec.InputOffset()})
					return false
				}
				out = append(out, token{tok: "raw " + string(raw), offset: dec.InputOffset()})
				continue
			}
			if d == '{' {
				tok, err = dec.Token()
				if !rec(tok, err) {
					return false
				}
			}
			if !value(tok) {
				return false
			}
		}
		tok, err := dec.Token()
		return rec(tok, err)
	}
	tok, err := dec.Token()
	if rec(tok, err) && value(tok) {
		tok, err := dec.Token()
		rec(tok, err)
	}
	return out
}

func stdDecoder(body []byte) *json.Decoder {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	return dec
}

// compareTokens checks that, up to where fastTokens refuses the body, it
// reads the same tokens at the same offsets as json.Decoder, and that it
// refuses only what the decoder cannot read or what it does not decode
// itself.
func compareTokens(t *testing.T, body []byte) (refused bool) {
	std := walkTokens(stdDecoder(body))
	fast := newFastTokens(body)
	got := walkTokens(fast)
	if fast.refused {
		// Up to the refusal, the same; the refusal is the last step.
		require.NotEmpty(t, got)
		assert.Equal(t, std[:len(got)-1], got[:len(got)-1], "%q", body)
		return true
	}
	assert.Equal(t, std, got, "%q", body)
	return false
}

func TestFastTokensReadAsTheDecoder(t *testing.T) {
	var read, refused int
	for _, b := range tokenBodies {
		if compareTokens(t, []byte(b)) {
			refused++
		} else {
			read++
		}
	}
	// Both kinds are exercised.
	assert.GreaterOrEqual(t, read, 8)
	assert.GreaterOrEqual(t, refused, 20)
	// A well-formed request is read without falling back.
	assert.False(t, compareTokens(t, []byte(tokenBodies[0])))
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
	slow := checkWith(&pd, body, want, stdDecoder(body))
	fast := checkCreateJSON(&ps, body, want)
	assert.Equal(t, outcome(&pd, slow), outcome(&ps, fast), "%q", body)
}

func TestStructuralPassIsTheSameWithFastTokens(t *testing.T) {
	for _, b := range tokenBodies {
		checkBothWays(t, []byte(b))
	}
}

// FuzzFastTokens compares fastTokens with json.Decoder, token by token,
// and the structural pass with each, on arbitrary bodies.
func FuzzFastTokens(f *testing.F) {
	for _, b := range tokenBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		compareTokens(t, body)
		checkBothWays(t, body)
	})
}
