package server_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// goPrefix matches the "package: " and "parse \"…\": " prefixes of Go error
// texts, which mean nothing to an API client.
var goPrefix = regexp.MustCompile(`(^|[;:(] ?)(exporttask|exporttasktest|server|webhook|worker|sqlite|postgres|catalog|storekit|json|strconv|url|net/url|http|time|parse( "[^"]*")?): `)

// TestProblemTextsHaveNoGoPrefixes sends requests whose errors come from
// several packages and checks that no problem text carries a Go package's
// prefix.
func TestProblemTextsHaveNoGoPrefixes(t *testing.T) {
	h := newHarness(t)
	jsonCT := map[string]string{"Content-Type": "application/json"}
	withHook := func(u string) string {
		r := h.sampleRequest(1)
		r.Webhook[0].URL = u
		return mustJSON(t, r)
	}
	bodies := map[string]string{
		"unparsable webhook URL":       withHook("http://[::1"),
		"webhook URL with a bad port":  withHook("http://example.com:99999/x"),
		"webhook to link-local":        withHook("http://169.254.169.254/latest"),
		"webhook to a private address": withHook("http://10.1.2.3/x"),
		"webhook on a low port":        withHook("http://93.184.216.34:25/x"),
		"webhook with another scheme":  withHook("ftp://example.com/x"),
		"wrong types":                  `{"catalogRecordID":1,"domain":true,"ROI":"x","artifactCRS":[],"webhook":{}}`,
		"bad geometry":                 `{"catalogRecordID":"c6b4a3d2-1f0e-4d9c-8b7a-6f5e4d3c2b1a","domain":"DEM","artifactCRS":"EPSG:4326","ROI":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,"x"]]]}}]},"webhook":[]}`,
		"not JSON":                     `{"catalogRecordID":`,
		"trailing data":                `{} {}`,
		"bad time-ish value":           `{"createdAt":"yesterday"}`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			resp, b := h.do(t, request{method: "POST", path: "/export-tasks", key: h.Key, header: jsonCT, body: body})
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, "body: %s", b)
			p := assertProblem(t, resp, b, http.StatusBadRequest, exporttask.ProblemTypeValidation)
			texts := []string{p.Detail}
			for _, e := range p.Errors {
				texts = append(texts, e.Message)
			}
			for _, s := range texts {
				assert.False(t, goPrefix.MatchString(s), "Go prefix in %q", s)
				assert.False(t, strings.Contains(s, "%!"), "formatting error in %q", s)
			}
		})
	}
}

func TestGoPrefixPattern(t *testing.T) {
	for _, s := range []string{
		"exporttask: webhook address not allowed",
		`/webhook/0/url: invalid webhook URL: parse "http://[::1": missing ']' in host`,
		"invalid request; webhook: blocked",
		"strconv: parsing",
	} {
		assert.True(t, goPrefix.MatchString(s), "%q", s)
	}
	for _, s := range []string{"must be a decimal integer from 1 up", "/domain: must be one of"} {
		assert.False(t, goPrefix.MatchString(s), "%q", s)
	}
}
