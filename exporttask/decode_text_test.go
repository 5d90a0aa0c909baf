package exporttask_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestDecodeRefusesInvalidUTF8: a string or member name anywhere in the
// body that is not valid UTF-8 is refused with its pointer, where a
// decoder would have stored U+FFFD.
func TestDecodeRefusesInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, body, ptr, msg string
	}{
		{"invalid byte in a value", with("\"description\": \"caf\xe9\""), "/description", "not a UTF-8 sequence"},
		{"overlong slash", with("\"description\": \"\xc0\xaf\""), "/description", "overlong"},
		{"overlong NUL", with("\"description\": \"a\xe0\x80\x80\""), "/description", "not a UTF-8 sequence"},
		{"encoded surrogate", with("\"description\": \"\xed\xa0\x80\""), "/description", "encoded surrogate"},
		{"truncated sequence", with("\"description\": \"\xe2\x82\""), "/description", "not a UTF-8 sequence"},
		{"lone high surrogate escape", with(`"description": "\ud800"`), "/description", `\ud800 is a high surrogate`},
		{"high surrogate then a letter", with(`"description": "\ud83dx"`), "/description", `\ud83d is a high surrogate`},
		{"two high surrogates", with(`"description": "\ud800\ud800"`), "/description", `\ud800 is a high surrogate`},
		{"lone low surrogate escape", with(`"description": "\udc00"`), "/description", `\udc00 is a low surrogate`},
		{"in the catalog record id", strings.Replace(minimalBody, `"0b3c7f1e`, "\"\xff0b3c7f1e", 1), "/catalogRecordID", "not a UTF-8 sequence"},
		{"in a webhook URL", strings.Replace(minimalBody, "hooks.example.org", "hooks.ex\xffample.org", 1), "/webhook/0/url", "not a UTF-8 sequence"},
		{"in a keyword", with("\"keywords\": {\"k\": [\"ok\", \"\xfe\"]}"), "/keywords/k/1", "not a UTF-8 sequence"},
		{"in a member name", with("\"keywords\": {\"k\xff\": 1}"), "/keywords", "member name that is not valid UTF-8"},
		{"in a feature property", withROI(`{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "\udfff"}, "geometry": {"type": "Polygon", "coordinates": [[[34.1, 31.1], [34.2, 31.1], [34.2, 31.2], [34.1, 31.1]]]}}]}`),
			"/ROI/features/0/properties/name", "low surrogate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := exporttask.DecodeCreateRequest(bytes.NewReader([]byte(tc.body)))
			require.Error(t, err)
			var found bool
			for _, p := range problemsOf(t, err) {
				if p.Pointer == tc.ptr && strings.Contains(p.Message, "UTF-8") {
					found = true
					assert.Contains(t, p.Message, tc.msg)
				}
			}
			assert.True(t, found, "a UTF-8 problem at %s in %v", tc.ptr, err)
		})
	}
}

// TestDecodeAcceptsValidText: paired surrogates, escapes and multi-byte
// characters are valid and decode to their characters.
func TestDecodeAcceptsValidText(t *testing.T) {
	req, err := exporttask.DecodeCreateRequest(strings.NewReader(with(
		`"description": "caf\u00e9 \ud83d\ude00 😀 \"q\" \\ \u2028 \uFFFD \ufffd ü"`)))
	require.NoError(t, err)
	assert.Equal(t, "café 😀 😀 \"q\" \\ \u2028 \uFFFD \uFFFD ü", req.Description)
}
