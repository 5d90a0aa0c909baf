package jsonscan

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenBodies reads testdata/bodies.txt: bodies for the comparisons of
// Fast with json.Decoder, one Go-quoted string a line, well-formed ones
// the fast tokenizer reads and others it must refuse. The structural pass
// of package jsonscan reads them too.
func tokenBodies(t testing.TB) []string {
	data, err := os.ReadFile(filepath.Join("testdata", "bodies.txt"))
	require.NoError(t, err)
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		b, err := strconv.Unquote(line)
		require.NoError(t, err, line)
		out = append(out, b)
	}
	return out
}

// token is one step of a walk: the token (or error) and the offset after it.
type token struct {
	tok    string
	offset int64
}

// walkTokens reads every token of body with dec, as the structural pass
// does: More before each element or member, Decode for a member named
// "coordinates". It stops at the first error.
func walkTokens(dec Source) []token {
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

// compareTokens checks that, up to where Fast refuses the body, it
// reads the same tokens at the same offsets as json.Decoder, and that it
// refuses only what the decoder cannot read or what it does not decode
// itself.
func compareTokens(t *testing.T, body []byte) (refused bool) {
	std := walkTokens(NewDecoder(body))
	fast := NewFast(body)
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
	bodies := tokenBodies(t)
	for _, b := range bodies {
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
	assert.False(t, compareTokens(t, []byte(bodies[0])))
}

// FuzzFastTokens compares Fast with json.Decoder, token by token, on
// arbitrary bodies.
func FuzzFastTokens(f *testing.F) {
	for _, b := range tokenBodies(f) {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		compareTokens(t, body)
	})
}
