package exporttask_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// validBody is a create request that uses every member.
const validBody = `{
  "catalogRecordID": "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
  "domain": "RASTER",
  "artifactCRS": "4326",
  "description": "harbour",
  "keywords": {"project": "coastline", "tags": ["a", null], "meta": {"n": 1}},
  "parameters": {"maxResolutionDeg": 0.5},
  "ROI": {
    "type": "FeatureCollection",
    "features": [{
      "type": "Feature",
      "properties": {"name": "harbour", "note": null},
      "geometry": {"type": "Polygon", "coordinates": [[[34.7, 32.0], [34.71, 32.0], [34.71, 32.01], [34.7, 32.0]]]}
    }]
  },
  "webhook": [{"url": "https://hooks.example.org/exports", "events": ["TASK_COMPLETED", "TASK_FAILED"]}]
}`

// minimalBody has only the required members.
const minimalBody = `{"catalogRecordID": "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05", "domain": "DEM", "artifactCRS": "4326",
  "webhook": [{"url": "https://hooks.example.org/exports", "events": ["TASK_COMPLETED"]}]}`

// withROI returns minimalBody with ROI set to roi.
func withROI(roi string) string {
	return strings.Replace(minimalBody, "{", `{"ROI": `+roi+", ", 1)
}

// withGeometry returns minimalBody with a one-feature ROI of geometry g.
func withGeometry(g string) string {
	return withROI(`{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": ` + g + `}]}`)
}

// with returns minimalBody with members added at the start.
func with(members string) string {
	return strings.Replace(minimalBody, "{", "{"+members+", ", 1)
}

func TestDecodeCreateRequestValid(t *testing.T) {
	got, err := exporttask.DecodeCreateRequest(strings.NewReader(validBody + "\n"))
	require.NoError(t, err)
	want := exporttask.CreateRequest{
		CatalogRecordID: testUUID,
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     "4326",
		Description:     "harbour",
		Keywords:        map[string]any{"project": "coastline", "tags": []any{"a", nil}, "meta": map[string]any{"n": 1.0}},
		Parameters:      map[string]any{"maxResolutionDeg": 0.5},
		ROI: &exporttask.FeatureCollection{Type: "FeatureCollection", Features: []exporttask.Feature{{
			Type:       "Feature",
			Properties: map[string]any{"name": "harbour", "note": nil},
			Geometry: exporttask.NewPolygon([]exporttask.Position{
				{34.7, 32.0}, {34.71, 32.0}, {34.71, 32.01}, {34.7, 32.0}}),
		}}},
		Webhook: []exporttask.Webhook{{URL: "https://hooks.example.org/exports",
			Events: []exporttask.Event{exporttask.EventCompleted, exporttask.EventFailed}}},
	}
	assert.Equal(t, want, got)
}

func TestDecodeCreateRequest(t *testing.T) {
	const poly = `[[[0, 0], [1, 0], [1, 1], [0, 0]]]`
	const geo = "/ROI/features/0/geometry"
	deep := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	tests := []struct {
		name string
		body string
		want []exporttask.FieldError // nil: valid
	}{
		// Valid bodies.
		{name: "minimal", body: minimalBody},
		{name: "surrounded by white space", body: " \n\t" + minimalBody + "\r\n "},
		{name: "null properties", body: withROI(`{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": null, "geometry": {"type": "Polygon", "coordinates": ` + poly + `}}]}`)},
		{name: "coordinates before type", body: withGeometry(`{"coordinates": ` + poly + `, "type": "Polygon"}`)},
		{name: "multipolygon", body: withGeometry(`{"type": "MultiPolygon", "coordinates": [` + poly + `, ` + poly + `]}`)},
		{name: "member order free, 3D positions", body: withGeometry(`{"type": "Polygon", "coordinates": [[[0, 0, 1], [1, 0, 2], [1, 1, 3], [0, 0, 1]]]}`)},
		{name: "deep keywords within the limit", body: with(`"keywords": {"k": ` + strings.Repeat("[", 30) + strings.Repeat("]", 30) + `}`)},

		// Not a JSON object.
		{name: "empty", body: "", want: []exporttask.FieldError{fe("", "the body is empty; it must be a JSON object")}},
		{name: "only white space", body: " \n ", want: []exporttask.FieldError{fe("", "the body is empty; it must be a JSON object")}},
		{name: "array", body: "[]", want: []exporttask.FieldError{fe("", "must be a JSON object, got an array")}},
		{name: "string", body: `"x"`, want: []exporttask.FieldError{fe("", "must be a JSON object, got a string")}},
		{name: "null", body: `null`, want: []exporttask.FieldError{fe("", "must be a JSON object, got null")}},

		// Syntax.
		{name: "not JSON", body: "hello", want: []exporttask.FieldError{fe("",
			"is not valid JSON: invalid character 'h' looking for beginning of value (near line 1, column 2)")}},
		{name: "missing value", body: `{"domain": }`, want: []exporttask.FieldError{fe("/domain",
			"is not valid JSON: invalid character '}' looking for beginning of value (near line 1, column 12)")}},
		{name: "syntax error on a later line", body: "{\n  \"domain\": \"DEM\",\n  \"description\": \"a\" \"b\"\n}",
			want: []exporttask.FieldError{fe("",
				"is not valid JSON: invalid character '\"' after object key:value pair (near line 3, column 22)")}},
		{name: "truncated", body: `{"domain": "DEM"`, want: []exporttask.FieldError{fe("",
			"is not valid JSON: the body ends before the value is complete")}},
		{name: "truncated in a webhook", body: `{"webhook": [{"url": "x"`, want: []exporttask.FieldError{fe("/webhook/0",
			"is not valid JSON: the body ends before the value is complete")}},
		{name: "problems before a syntax error are kept", body: `{"domain": 1, "x": ]`, want: []exporttask.FieldError{
			fe("/domain", "must be a string, got a number"),
			fe("/x", `unknown member "x"; the members are catalogRecordID, domain, ROI, artifactCRS, description, keywords, parameters, webhook, webhooks`),
			fe("/x", "is not valid JSON: invalid character ']' looking for beginning of value (near line 1, column 20)"),
		}},
		{name: "trailing data", body: minimalBody + " x", want: []exporttask.FieldError{fe("", "unexpected data after the JSON object")}},
		{name: "second object", body: minimalBody + "{}", want: []exporttask.FieldError{fe("", "unexpected data after the JSON object")}},

		// Unknown members, with hints.
		{name: "webhook and webhooks", body: with(`"webhooks": [{"url": "https://a.example/x", "events": ["TASK_FAILED"]}]`), want: []exporttask.FieldError{fe("/webhook",
			"/webhook (v1.6.5) and /webhooks (v1.7.0) are the same member in two versions of the API; give only one of them")}},
		{name: "webhok", body: with(`"webhok": []`), want: []exporttask.FieldError{fe("/webhok", `unknown member "webhok"; did you mean "webhook"?`)}},
		{name: "case", body: with(`"catalogRecordId": "x"`), want: []exporttask.FieldError{fe("/catalogRecordId", `unknown member "catalogRecordId"; did you mean "catalogRecordID"?`)}},
		{name: "lower-case roi", body: with(`"roi": {}`), want: []exporttask.FieldError{fe("/roi", `unknown member "roi"; did you mean "ROI"?`)}},
		{name: "typo", body: with(`"discription": "x"`), want: []exporttask.FieldError{fe("/discription", `unknown member "discription"; did you mean "description"?`)}},
		{name: "nothing close", body: with(`"priority": 1`), want: []exporttask.FieldError{fe("/priority",
			`unknown member "priority"; the members are catalogRecordID, domain, ROI, artifactCRS, description, keywords, parameters, webhook, webhooks`)}},
		{name: "escaped in the pointer", body: with(`"a/b~c": 1`), want: []exporttask.FieldError{fe("/a~1b~0c",
			`unknown member "a/b~c"; the members are catalogRecordID, domain, ROI, artifactCRS, description, keywords, parameters, webhook, webhooks`)}},
		{name: "in a webhook", body: strings.Replace(minimalBody, `"url"`, `"uri"`, 1), want: []exporttask.FieldError{
			fe("/webhook/0/uri", `unknown member "uri"; did you mean "url"?`), fe("/webhook/0/url", "is required")}},
		{name: "bbox on the collection", body: withROI(`{"type": "FeatureCollection", "bbox": [0, 0, 1, 1], "features": []}`),
			want: []exporttask.FieldError{fe("/ROI/bbox", `unknown member "bbox"; the members are type, features`),
				fe("/ROI/features", "must have at least one feature; to export the whole record, leave ROI out")}},
		{name: "id on a feature", body: withROI(`{"type": "FeatureCollection", "features": [{"id": 7, "type": "Feature", "properties": {}, "geometry": null}]}`),
			want: []exporttask.FieldError{fe("/ROI/features/0/id", `unknown member "id"; the members are type, properties, geometry`),
				fe("/ROI/features/0/geometry", "is required: a Polygon or MultiPolygon")}},
		{name: "bbox on a geometry", body: withGeometry(`{"type": "Polygon", "bbox": [0, 0, 1, 1], "coordinates": ` + poly + `}`),
			want: []exporttask.FieldError{fe(geo+"/bbox", `unknown member "bbox"; the members are type, coordinates`)}},
		{name: "typo on a geometry", body: withGeometry(`{"type": "Polygon", "coordinate": ` + poly + `}`),
			want: []exporttask.FieldError{fe(geo+"/coordinate", `unknown member "coordinate"; did you mean "coordinates"?`),
				fe(geo+"/coordinates", "a polygon needs at least one linear ring (its exterior)")}},

		// Wrong JSON types.
		{name: "number for a string", body: with(`"description": 5`), want: []exporttask.FieldError{fe("/description", "must be a string, got a number")}},
		{name: "null for a string", body: strings.Replace(minimalBody, `"domain": "DEM"`, `"domain": null`, 1), want: []exporttask.FieldError{fe("/domain", "must be a string, got null")}},
		{name: "null description and keywords (nullable in v1.7.0)", body: with(`"description": null, "keywords": null`)},
		{name: "object for a string", body: with(`"description": {"a": [1]}`), want: []exporttask.FieldError{fe("/description", "must be a string, got an object")}},
		{name: "boolean for an object", body: with(`"keywords": true`), want: []exporttask.FieldError{fe("/keywords", "must be an object, got a boolean")}},
		{name: "array for an object", body: with(`"parameters": [1, 2]`), want: []exporttask.FieldError{fe("/parameters", "must be an object, got an array")}},
		{name: "null ROI", body: with(`"ROI": null`), want: []exporttask.FieldError{fe("/ROI", "must be an object, got null")}},
		{name: "features not an array", body: withROI(`{"type": "FeatureCollection", "features": {}}`), want: []exporttask.FieldError{fe("/ROI/features", "must be an array, got an object")}},
		{name: "feature not an object", body: withROI(`{"type": "FeatureCollection", "features": ["x"]}`), want: []exporttask.FieldError{fe("/ROI/features/0", "must be an object, got a string")}},
		{name: "properties an array", body: withROI(`{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": [], "geometry": null}]}`),
			want: []exporttask.FieldError{fe("/ROI/features/0/properties", "must be an object, got an array"),
				fe("/ROI/features/0/geometry", "is required: a Polygon or MultiPolygon")}},
		{name: "geometry a string", body: withGeometry(`"POLYGON((0 0))"`), want: []exporttask.FieldError{fe(geo, "must be an object, got a string")}},
		{name: "geometry type a number", body: withGeometry(`{"type": 7, "coordinates": []}`), want: []exporttask.FieldError{fe(geo+"/type", "must be a string, got a number")}},
		{name: "coordinates a string", body: withGeometry(`{"type": "Polygon", "coordinates": "0 0"}`), want: []exporttask.FieldError{fe(geo+"/coordinates", "must be an array of linear rings, got a string")}},
		{name: "coordinates null", body: withGeometry(`{"type": "MultiPolygon", "coordinates": null}`), want: []exporttask.FieldError{fe(geo+"/coordinates", "must be an array of polygons, got null")}},
		{name: "ring not an array", body: withGeometry(`{"type": "Polygon", "coordinates": [{}]}`), want: []exporttask.FieldError{fe(geo+"/coordinates/0", "must be an array of positions (a linear ring), got an object")}},
		{name: "position not an array", body: withGeometry(`{"type": "Polygon", "coordinates": [[[0, 0], "1 1", [0, 0]]]}`), want: []exporttask.FieldError{fe(geo+"/coordinates/0/1", "must be an array of numbers (a position), got a string")}},
		{name: "null position", body: withGeometry(`{"type": "Polygon", "coordinates": [[[0, 0], null, [1, 1], [0, 0]]]}`), want: []exporttask.FieldError{fe(geo+"/coordinates/0/1", "must be an array of numbers (a position), got null")}},
		{name: "null number", body: withGeometry(`{"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, null], [1, 1], [0, 0]]]]}`), want: []exporttask.FieldError{fe(geo+"/coordinates/0/0/1/1", "must be a number, got null")}},
		{name: "number as a string", body: withGeometry(`{"type": "Polygon", "coordinates": [[[0, "1"]]]}`), want: []exporttask.FieldError{fe(geo+"/coordinates/0/0/1", "must be a number, got a string")}},
		{name: "MultiPolygon nesting for a Polygon", body: withGeometry(`{"type": "Polygon", "coordinates": [` + poly + `]}`), want: []exporttask.FieldError{
			fe(geo+"/coordinates/0/0/0", "must be a number, got an array"),
			fe(geo+"/coordinates/0/0/1", "must be a number, got an array"),
			fe(geo+"/coordinates/0/0/2", "must be a number, got an array"),
			fe(geo+"/coordinates/0/0/3", "must be a number, got an array"),
		}},
		{name: "Polygon nesting for a MultiPolygon", body: withGeometry(`{"type": "MultiPolygon", "coordinates": [[[0, 0], [1, 1]]]}`), want: []exporttask.FieldError{
			fe(geo+"/coordinates/0/0/0", "must be an array of numbers (a position), got a number"),
			fe(geo+"/coordinates/0/0/1", "must be an array of numbers (a position), got a number"),
			fe(geo+"/coordinates/0/1/0", "must be an array of numbers (a position), got a number"),
			fe(geo+"/coordinates/0/1/1", "must be an array of numbers (a position), got a number"),
		}},
		{name: "webhook an object", body: minimalBody[:strings.Index(minimalBody, `"webhook"`)] + `"webhook": {}}`, want: []exporttask.FieldError{fe("/webhook", "must be an array, got an object")}},
		{name: "webhook item an array", body: strings.Replace(minimalBody, `[{"url"`, `[[], {"url"`, 1), want: []exporttask.FieldError{fe("/webhook/0", "must be an object, got an array")}},
		{name: "url a number", body: strings.Replace(minimalBody, `"https://hooks.example.org/exports"`, `42`, 1), want: []exporttask.FieldError{fe("/webhook/0/url", "must be a string, got a number")}},
		{name: "events a string", body: strings.Replace(minimalBody, `["TASK_COMPLETED"]`, `"TASK_COMPLETED"`, 1), want: []exporttask.FieldError{fe("/webhook/0/events", "must be an array, got a string")}},
		{name: "event a number", body: strings.Replace(minimalBody, `["TASK_COMPLETED"]`, `["TASK_COMPLETED", 3]`, 1), want: []exporttask.FieldError{fe("/webhook/0/events/1", "must be a string, got a number")}},

		// Duplicate member names, at any depth.
		{name: "duplicate at the top", body: with(`"domain": "RASTER"`), want: []exporttask.FieldError{fe("/domain", `duplicate member "domain": a name may appear only once in an object`)}},
		{name: "duplicate in a webhook", body: strings.Replace(minimalBody, `"url"`, `"url": "https://a.example", "url"`, 1), want: []exporttask.FieldError{fe("/webhook/0/url", `duplicate member "url": a name may appear only once in an object`)}},
		{name: "duplicate in keywords", body: with(`"keywords": {"a": 1, "b": 2, "a": 3}`), want: []exporttask.FieldError{fe("/keywords/a", `duplicate member "a": a name may appear only once in an object`)}},
		{name: "duplicate deep in a keyword value", body: with(`"keywords": {"a": [{"x": 1, "x": 1}]}`), want: []exporttask.FieldError{fe("/keywords/a/0/x", `duplicate member "x": a name may appear only once in an object`)}},
		{name: "duplicate in properties", body: withROI(`{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"p": 1, "p": null}, "geometry": {"type": "Polygon", "coordinates": ` + poly + `}}]}`),
			want: []exporttask.FieldError{fe("/ROI/features/0/properties/p", `duplicate member "p": a name may appear only once in an object`)}},
		{name: "duplicate in a geometry", body: withGeometry(`{"type": "Polygon", "type": "Polygon", "coordinates": ` + poly + `}`), want: []exporttask.FieldError{fe(geo+"/type", `duplicate member "type": a name may appear only once in an object`)}},

		// Numbers, depth, required properties.
		{name: "coordinate out of float64 range", body: withGeometry(`{"type": "Polygon", "coordinates": [[[1e999, 0]]]}`), want: []exporttask.FieldError{fe(geo+"/coordinates/0/0/0", `the number "1e999" is out of range`)}},
		{name: "keyword number out of range", body: with(`"keywords": {"n": -2e308}`), want: []exporttask.FieldError{fe("/keywords/n", `the number "-2e308" is out of range`)}},
		{name: "too deep", body: with(`"keywords": {"k": ` + deep + `}`), want: []exporttask.FieldError{fe("/keywords/k"+strings.Repeat("/0", 30), "nests deeper than 32 levels of objects and arrays")}},
		{name: "properties missing", body: withROI(`{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": ` + poly + `}}]}`),
			want: []exporttask.FieldError{fe("/ROI/features/0/properties", "is required (RFC 7946): an object, or null")}},

		// Sound JSON goes on to validation, with all its problems.
		{name: "validation problems, in body order", body: strings.Replace(with(`"description": "`+strings.Repeat("d", 2001)+`"`), `"DEM"`, `"dem"`, 1), want: []exporttask.FieldError{
			fe("/description", "is 2001 characters long; at most 2000 are allowed"),
			fe("/domain", `must be one of "DEM", "3D", "RASTER", got "dem"`),
		}},
		{name: "geometry of another type", body: withGeometry(`{"type": "Point", "coordinates": [1, 2]}`), want: []exporttask.FieldError{fe(geo+"/type", `must be "Polygon" or "MultiPolygon", got "Point"`)}},
		{name: "null geometry", body: withGeometry(`null`), want: []exporttask.FieldError{fe(geo, "is required: a Polygon or MultiPolygon")}},
		{name: "empty features", body: withROI(`{"type": "FeatureCollection", "features": []}`), want: []exporttask.FieldError{fe("/ROI/features", "must have at least one feature; to export the whole record, leave ROI out")}},
		{name: "missing members", body: `{}`, want: []exporttask.FieldError{
			fe("/catalogRecordID", "is required"), fe("/domain", "is required"),
			fe("/artifactCRS", "is required"), fe("/webhook", "at least one webhook is required"),
		}},
		{name: "structural problems in body order", body: with(`"webhok": [], "domain": "dem"`), want: []exporttask.FieldError{
			fe("/webhok", `unknown member "webhok"; did you mean "webhook"?`),
			fe("/domain", `duplicate member "domain": a name may appear only once in an object`),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := exporttask.DecodeCreateRequest(strings.NewReader(tt.body))
			if tt.want == nil {
				require.NoError(t, err)
				assert.NoError(t, got.Validate())
				return
			}
			require.Error(t, err)
			assert.Equal(t, exporttask.CreateRequest{}, got)
			assert.Equal(t, tt.want, problemsOf(t, err))
		})
	}
}

// failingReader returns some bytes, then an error.
type failingReader struct{ err error }

func (r *failingReader) Read(p []byte) (int, error) { return 0, r.err }

func TestDecodeCreateRequestReadErrors(t *testing.T) {
	t.Run("reader error is wrapped", func(t *testing.T) {
		boom := errors.New("connection reset")
		_, err := exporttask.DecodeCreateRequest(io.MultiReader(strings.NewReader("{"), &failingReader{boom}))
		require.ErrorIs(t, err, boom)
		var ve *exporttask.ValidationError
		assert.False(t, errors.As(err, &ve), "a read error is not the client's mistake")
		assert.Contains(t, err.Error(), "exporttask: reading the request body")
	})
	t.Run("http.MaxBytesReader", func(t *testing.T) {
		r := http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(strings.NewReader(validBody)), 10)
		_, err := exporttask.DecodeCreateRequest(r)
		var mbe *http.MaxBytesError
		require.ErrorAs(t, err, &mbe)
		assert.EqualValues(t, 10, mbe.Limit)
	})
	t.Run("body over MaxBodyBytes", func(t *testing.T) {
		body := minimalBody + strings.Repeat(" ", exporttask.MaxBodyBytes-len(minimalBody)+1)
		_, err := exporttask.DecodeCreateRequest(strings.NewReader(body))
		var mbe *http.MaxBytesError
		require.ErrorAs(t, err, &mbe)
		assert.EqualValues(t, exporttask.MaxBodyBytes, mbe.Limit)
	})
	t.Run("body of exactly MaxBodyBytes", func(t *testing.T) {
		body := minimalBody + strings.Repeat(" ", exporttask.MaxBodyBytes-len(minimalBody))
		_, err := exporttask.DecodeCreateRequest(bytes.NewReader([]byte(body)))
		assert.NoError(t, err)
	})
}
