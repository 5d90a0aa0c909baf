package exporttask_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestDecodeCreateRequestCollectsEverything checks that a type error or an
// unknown member does not hide the other problems of a body, and that all
// are listed in the order of the body.
func TestDecodeCreateRequestCollectsEverything(t *testing.T) {
	const hook = `[{"url": "https://hooks.example.org/x", "events": ["TASK_COMPLETED"]}]`
	const ring = `[[0, 0], [1, 0], [1, 1], [0, 0]]`
	const open = `[[0, 0], [1, 0], [1, 1], [0, 1]]`
	geo := func(i int) string { return "/ROI/features/" + string(rune('0'+i)) + "/geometry" }
	tests := []struct {
		name string
		body string
		want []exporttask.FieldError
	}{
		{
			name: "a type error, then a validation problem",
			body: `{"domain": 5, "catalogRecordID": "nope", "artifactCRS": "4326", "webhook": ` + hook + `}`,
			want: []exporttask.FieldError{
				fe("/domain", "must be a string, got a number"),
				fe("/catalogRecordID", `must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got "nope"`),
			},
		},
		{
			name: "validation, unknown member, validation",
			body: `{"catalogRecordID": "x", "priority": 1, "domain": "dem", "artifactCRS": "4326", "webhook": ` + hook + `}`,
			want: []exporttask.FieldError{
				fe("/catalogRecordID", `must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got "x"`),
				fe("/priority", `unknown member "priority"; the members are catalogRecordID, domain, ROI, artifactCRS, description, keywords, parameters, webhook, webhooks`),
				fe("/domain", `must be one of "DEM", "3D", "RASTER", got "dem"`),
			},
		},
		{
			name: "a value of the wrong type is not also reported missing",
			body: `{"catalogRecordID": 5, "domain": ["DEM"], "artifactCRS": null, "webhook": "https://x.example"}`,
			want: []exporttask.FieldError{
				fe("/catalogRecordID", "must be a string, got a number"),
				fe("/domain", "must be a string, got an array"),
				fe("/artifactCRS", "must be a string, got null"),
				fe("/webhook", "must be an array, got a string"),
			},
		},
		{
			name: "missing members come at the end of their object",
			body: `{"webhook": [{"url": 7, "events": ["NOPE"]}], "keywords": {"": 1}}`,
			want: []exporttask.FieldError{
				fe("/webhook/0/url", "must be a string, got a number"),
				fe("/webhook/0/events/0", `unknown event "NOPE"; the events are TASK_STARTED, TASK_IN_PROGRESS, TASK_UPDATED, TASK_COMPLETED, TASK_FAILED, TASK_ABORTED, TASK_EXPIRED, TASK_PAUSED, TASK_ARCHIVED`),
				fe("/keywords/", "a key must not be empty"),
				fe("/catalogRecordID", "is required"),
				fe("/domain", "is required"),
				fe("/artifactCRS", "is required"),
			},
		},
		{
			name: "a case-variant member does not fill the field",
			body: `{"CatalogRecordID": "` + testUUID + `", "domain": "DEM", "artifactCRS": "4326", "webhook": ` + hook + `}`,
			want: []exporttask.FieldError{
				fe("/CatalogRecordID", `unknown member "CatalogRecordID"; did you mean "catalogRecordID"?`),
				fe("/catalogRecordID", "is required"),
			},
		},
		{
			name: "bad coordinates in one feature, an open ring in the next, a bad URL after",
			body: `{"catalogRecordID": "` + testUUID + `", "domain": "DEM", "artifactCRS": "4326",
			  "ROI": {"type": "FeatureCollection", "features": [
			    {"type": "Feature", "properties": {}, "geometry": {"coordinates": [[[0, "1"]]], "type": "Polygon", "bbox": []}},
			    {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [` + open + `]}},
			    {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [` + ring + `]}}]},
			  "webhook": [{"url": "ftp://x.example", "events": ["TASK_COMPLETED"]}]}`,
			want: []exporttask.FieldError{
				fe(geo(0)+"/coordinates/0/0/1", "must be a number, got a string"),
				fe(geo(0)+"/bbox", `unknown member "bbox"; the members are type, coordinates`),
				fe(geo(1)+"/coordinates/0", "a linear ring must be closed: its last position must equal its first"),
				fe("/ROI/features/2/properties", "is required (RFC 7946): an object, or null"),
				fe("/webhook/0/url", `must be an http or https URL, got scheme "ftp"`),
			},
		},
		{
			name: "a structural problem and a validation problem at one place",
			body: with(`"keywords": {"a": 1, "a": "` + strings.Repeat("x", exporttask.MaxValueBytes) + `"}`),
			want: []exporttask.FieldError{
				fe("/keywords/a", `duplicate member "a": a name may appear only once in an object`),
				fe("/keywords/a", "the value is 4098 bytes of JSON; at most 4096 are allowed"),
			},
		},
		{
			name: "trailing data comes last",
			body: `{"domain": "x", "catalogRecordID": "` + testUUID + `", "artifactCRS": "4326", "webhook": ` + hook + `} []`,
			want: []exporttask.FieldError{
				fe("/domain", `must be one of "DEM", "3D", "RASTER", got "x"`),
				fe("", "unexpected data after the JSON object"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := exporttask.DecodeCreateRequest(strings.NewReader(tt.body))
			require.Error(t, err)
			assert.Equal(t, tt.want, problemsOf(t, err))
		})
	}
}

// TestDecodeCreateRequestProblemCap checks that structural and validation
// problems share one cap, with the rest counted.
func TestDecodeCreateRequestProblemCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"webhook": [`)
	for i := 0; i < exporttask.MaxProblems; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"url": 1, "events": ["X"]}`) // two problems each
	}
	b.WriteString(`]}`)
	_, err := exporttask.DecodeCreateRequest(strings.NewReader(b.String()))
	got := problemsOf(t, err)
	require.Len(t, got, exporttask.MaxProblems+1)
	assert.Equal(t, fe("/webhook", "has 100 webhooks; at most 10 are allowed"), got[0])
	assert.Equal(t, fe("/webhook/0/url", "must be a string, got a number"), got[1])
	assert.Equal(t, "/webhook/0/events/0", got[2].Pointer)
	// The count of webhooks, 200 in the webhooks (not the 100 URLs again as
	// missing) and 3 missing members.
	assert.Equal(t, fe("", "104 more problems are not listed"), got[exporttask.MaxProblems])
}

func TestDecodeCreateRequestLowerCasesTheUUID(t *testing.T) {
	upper := strings.ToUpper(testUUID)
	for _, tc := range []struct{ name, id string }{
		{"lower", testUUID},
		{"upper", upper},
		{"mixed", upper[:10] + testUUID[10:]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.Replace(minimalBody, testUUID, tc.id, 1)
			req, err := exporttask.DecodeCreateRequest(strings.NewReader(body))
			require.NoError(t, err)
			assert.Equal(t, testUUID, req.CatalogRecordID)

			lower, err := exporttask.DecodeCreateRequest(strings.NewReader(minimalBody))
			require.NoError(t, err)
			k1, err := taskstore.DedupKey(req)
			require.NoError(t, err)
			k2, err := taskstore.DedupKey(lower)
			require.NoError(t, err)
			assert.Equal(t, k2, k1, "the same record, whatever the case")
		})
	}
	t.Run("DedupKey of a request built in Go", func(t *testing.T) {
		a := exporttask.CreateRequest{CatalogRecordID: upper, Domain: exporttask.DomainDEM, ArtifactCRS: "4326"}
		b := a
		b.CatalogRecordID = testUUID
		ka, err := taskstore.DedupKey(a)
		require.NoError(t, err)
		kb, err := taskstore.DedupKey(b)
		require.NoError(t, err)
		assert.Equal(t, kb, ka)
	})
}

func TestNumbersKeepTheirText(t *testing.T) {
	tests := []struct {
		name   string
		number string
		float  bool // read as a float64 (its text is what a float64 writes)
	}{
		{"beyond 2^53", "9007199254740993", false},
		{"2^53", "9007199254740992", true},
		{"integer", "42", true},
		{"fraction", "0.5", true},
		{"negative zero", "-0", true},
		{"trailing zero", "1.0", false},
		{"exponent", "1e2", false},
		{"long fraction", "0.1000000000000000055511151231257827", false},
		{"tiny", "1e-7", true},
		{"huge", "1e+21", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := with(`"parameters": {"n": ` + tt.number + `, "deep": [{"m": ` + tt.number + `}]}, "keywords": {"k": ` + tt.number + `}`)
			req, err := exporttask.DecodeCreateRequest(strings.NewReader(body))
			require.NoError(t, err)
			if tt.float {
				assert.IsType(t, float64(0), req.Parameters["n"])
			} else {
				assert.Equal(t, json.Number(tt.number), req.Parameters["n"])
			}
			// The request, and a task holding it, write the number back as it came.
			out, err := json.Marshal(req)
			require.NoError(t, err)
			for _, name := range []string{"n", "m", "k"} {
				assert.Regexp(t, `"`+name+`":`+regexp.QuoteMeta(tt.number)+`[,}]`, string(out))
			}

			task := exporttask.Task{ID: 1, CreateRequest: exporttask.CreateRequest{CatalogRecordID: req.CatalogRecordID, Keywords: req.Keywords, Parameters: req.Parameters}}
			stored, err := json.Marshal(task)
			require.NoError(t, err)
			var back exporttask.Task
			require.NoError(t, json.Unmarshal(stored, &back))
			assert.Equal(t, task.Parameters, back.Parameters)
			assert.Equal(t, task.Keywords, back.Keywords)
			again, err := json.Marshal(back)
			require.NoError(t, err)
			assert.JSONEq(t, string(stored), string(again))
			assert.Regexp(t, `"n":`+regexp.QuoteMeta(tt.number)+`[,}]`, string(again))
		})
	}
}

func TestDedupKeyTellsNumbersApart(t *testing.T) {
	key := func(n string) string {
		t.Helper()
		req, err := exporttask.DecodeCreateRequest(strings.NewReader(with(`"parameters": {"n": ` + n + `}`)))
		require.NoError(t, err)
		k, err := taskstore.DedupKey(req)
		require.NoError(t, err)
		return k
	}
	assert.NotEqual(t, key("9007199254740993"), key("9007199254740992"))
	assert.NotEqual(t, key("9007199254740993"), key("9007199254740994"))
	assert.NotEqual(t, key("0.1000000000000000055511151231257827"), key("0.1"))
	assert.Equal(t, key("9007199254740993"), key("9007199254740993"))
	assert.Equal(t, key("0.5"), key("0.5"))
}
