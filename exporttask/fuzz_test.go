package exporttask_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// FuzzDecodeCreate feeds arbitrary bodies to DecodeCreateRequest. It must
// never panic; it returns either a valid request, which encodes and
// decodes again to the same request, or a *ValidationError whose problems
// all have a pointer and a message.
func FuzzDecodeCreate(f *testing.F) {
	seeds := []string{
		validBody,
		minimalBody,
		withGeometry(`{"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]]]}`),
		withGeometry(`{"coordinates": [[[0, 0, 5], [1, 0, 5], [1, 1, 5], [0, 0, 5]]], "type": "Polygon"}`),
		withGeometry(`{"type": "Polygon", "coordinates": [[[[0]]]]}`),
		withGeometry(`{"type": "Point", "coordinates": [1, 2]}`),
		withGeometry(`{"type": "Polygon", "coordinates": [[[1e999, -1e999]]]}`),
		withGeometry(`null`),
		withGeometry(`{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}`),
		withGeometry(`{"type": "Polygon", "coordinates": [[[0, 0], [9, 0], [9, 9], [0, 0]], [[1, 1], [2, 1], [1, 2], [1, 1]]]}`),
		strings.Replace(minimalBody, "0b3c7f1e", "0B3C7F1E", 1),
		with(`"parameters": {"n": 9007199254740993, "m": [1.0, 1e2, -0]}, "domain": 5, "x": {}`),
		withROI(`{"type": "FeatureCollection", "features": []}`),
		withROI(`{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": null, "geometry": null}]}`),
		with(`"webhooks": [], "domain": 5`),
		with(`"keywords": {"a": 1, "a": {"b": [null, true, "x", 1.5e300]}}`),
		with(`"keywords": {"k": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`),
		with(`"description": "\u00e9\ud83d\ude00 \"quoted\" \\ / \u0000"`),
		with(`"a/b~c": 1, "": 2`),
		"", " ", "{", "}", "[", "null", `"x"`, "0", "{}", "{} {}", `{"a":}`, `{"a" 1}`, `{,}`, `{"a":1,}`,
		"\xff\xfe", `{"domain":"\xff"}`, minimalBody + "x",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := exporttask.DecodeCreateRequest(bytes.NewReader(body))
		if err != nil {
			var ve *exporttask.ValidationError
			require.True(t, errors.As(err, &ve), "only validation errors from a byte slice: %v", err)
			require.NotEmpty(t, ve.Problems)
			for _, p := range ve.Problems {
				assert.True(t, p.Pointer == "" || p.Pointer[0] == '/', "pointer %q", p.Pointer)
				assert.NotEmpty(t, p.Message)
			}
			return
		}
		require.NoError(t, req.Validate(), "a decoded request is valid")
		again, err := json.Marshal(req)
		require.NoError(t, err, "a valid request encodes")
		req2, err := exporttask.DecodeCreateRequest(bytes.NewReader(again))
		require.NoError(t, err, "an encoded request decodes: %s", again)
		assert.Equal(t, req, req2)
	})
}
