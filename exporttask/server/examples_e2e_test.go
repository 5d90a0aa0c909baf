package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exportserver/exportservertest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// exampleServer is the example server, run in-process with the real
// exporter and the demo catalog, and a client that checks every answer
// against openapi.yaml.
type exampleServer struct {
	url string
	hc  *http.Client
}

// Keys of the example servers: acme may read and write with exWriteKey, only
// read with exReadKey.
const (
	exWriteKey = "examples-write-key-0123456789"
	exReadKey  = "examples-read-key-0123456789"
)

func startDemoServer(t *testing.T, checker *testkit.SpecChecker, args ...string) exampleServer {
	t.Helper()
	dir := t.TempDir()
	url := exportservertest.Start(t, append([]string{"-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "tasks.db"),
		"-catalog", filepath.Join(dir, "catalog"), "-keys", exWriteKey + "=acme," + exReadKey + "=acme:read"}, args...)...)
	return exampleServer{url: url, hc: &http.Client{Transport: checker.Transport(http.DefaultTransport)}}
}

// do sends a request and returns the status, headers and body.
func (s exampleServer) do(t *testing.T, method, path, key, contentType string, body []byte, header ...string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, s.url+path, bytes.NewReader(body))
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

func (s exampleServer) create(t *testing.T, body []byte, header ...string) (int, []byte) {
	t.Helper()
	status, _, b := s.do(t, http.MethodPost, "/export-tasks", exWriteKey, "application/json", body, header...)
	return status, b
}

// loadExamples returns openapi.yaml's named examples, as JSON.
func loadExamples(t *testing.T) map[string][]byte {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(exporttask.OpenAPI())
	require.NoError(t, err)
	out := map[string][]byte{}
	for name, ref := range doc.Components.Examples {
		b, err := json.Marshal(ref.Value.Value)
		require.NoError(t, err)
		out[name] = b
	}
	return out
}

// numbers and times in a problem's detail: ids, sizes and instants that
// an example cannot know.
var (
	timeRE   = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	numberRE = regexp.MustCompile(`\d+(\.\d+)?`)
)

func normalDetail(s string) string {
	return numberRE.ReplaceAllString(timeRE.ReplaceAllString(s, "TIME"), "N")
}

// TestEveryExampleIsTrue sends each create example of openapi.yaml to the
// example server (real exports of the demo catalog) and checks that it is
// accepted, that the task it makes completes, and, for each problem
// example, that the server answers the request the example describes with
// the same status and detail (ids, numbers and times aside). Every answer
// is validated against openapi.yaml on the way.
func TestEveryExampleIsTrue(t *testing.T) {
	examples := loadExamples(t)
	checker := testkit.NewSpecChecker(t)
	s := startDemoServer(t, checker, "-quota", "10000000000")
	covered := map[string]bool{}

	// The dry run of the RASTER example answers as DryRunRaster does: the
	// same members, quota and artifact types (the estimates are the
	// exporter's, which may be tuned), and stores nothing.
	covered["DryRunRaster"] = true
	st, _, b := s.do(t, http.MethodPost, "/export-tasks/estimate", exWriteKey, "application/json", examples["CreateRasterPolygon"])
	require.Equal(t, http.StatusOK, st, "%s", b)
	var wantDry, gotDry exporttask.DryRun
	require.NoError(t, json.Unmarshal(examples["DryRunRaster"], &wantDry))
	require.NoError(t, json.Unmarshal(b, &gotDry))
	assert.Equal(t, memberNames(t, examples["DryRunRaster"]), memberNames(t, b))
	assert.Equal(t, wantDry.QuotaBytes, gotDry.QuotaBytes)
	assert.Equal(t, wantDry.RemainingQuotaBytes, gotDry.RemainingQuotaBytes, "nothing stored yet: the whole quota is left")
	assert.Equal(t, wantDry.Fits, gotDry.Fits)
	assert.Equal(t, wantDry.ArtifactTypes, gotDry.ArtifactTypes)
	assert.Positive(t, gotDry.EstimatedSize)
	assert.Greater(t, gotDry.RequiredBytes, gotDry.EstimatedSize, "the stored document counts too")
	_, _, b = s.do(t, http.MethodGet, "/export-tasks", exReadKey, "", nil)
	assert.JSONEq(t, "[]", string(b), "a dry run stores nothing")

	// The create examples: 201, then COMPLETED, with artifacts of the
	// types the dry run said, in its order (one example per domain).
	var ids []int64
	var dryTypes [][]exporttask.ArtifactType
	for _, name := range []string{"CreateRasterPolygon", "CreateDEMWholeRecord", "Create3DMultiPolygon", "CreateDEMv170"} {
		covered[name] = true
		st, _, b := s.do(t, http.MethodPost, "/export-tasks/estimate", exWriteKey, "application/json", examples[name])
		require.Equal(t, http.StatusOK, st, "%s: %s", name, b)
		var dry exporttask.DryRun
		require.NoError(t, json.Unmarshal(b, &dry))
		dryTypes = append(dryTypes, dry.ArtifactTypes)
		status, b := s.create(t, examples[name])
		require.Equal(t, http.StatusCreated, status, "%s: %s", name, b)
		var members map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(b, &members))
		shape := "webhook"
		if strings.HasSuffix(name, "v170") {
			shape = "webhooks"
		}
		assert.Contains(t, members, shape, "%s is answered in its own shape", name)
		var task exporttask.Task
		require.NoError(t, json.Unmarshal(b, &task))
		ids = append(ids, task.ID)
	}
	for i, id := range ids {
		task := waitFinal(t, s, id)
		assert.Equal(t, exporttask.StatusCompleted, task.Status, "task %d: %s", i, task.ErrorReason)
		var types []exporttask.ArtifactType
		for _, a := range task.Artifacts {
			types = append(types, a.Type)
		}
		assert.Equal(t, dryTypes[i], types, "task %d (%s): the dry run's artifact types are the export's", i, task.Domain)
	}

	// The task examples say what a task looks like: the members of a
	// completed task of the server are those of TaskCompleted.
	covered["TaskCompleted"] = true
	_, _, got := s.do(t, http.MethodGet, "/export-tasks/1", exReadKey, "", nil)
	assert.Equal(t, memberNames(t, examples["TaskCompleted"]), memberNames(t, got))

	problem := func(name string, status int, h http.Header, body []byte) {
		t.Helper()
		covered[name] = true
		var want, have exporttask.Problem
		require.NoError(t, json.Unmarshal(examples[name], &want), name)
		require.NoError(t, json.Unmarshal(body, &have), "%s: %s", name, body)
		assert.Equal(t, want.Status, status, "%s: %s", name, body)
		assert.Equal(t, want.Type, have.Type, name)
		assert.Equal(t, normalDetail(want.Detail), normalDetail(have.Detail), name)
		assert.Equal(t, want.Detail, want.Message, "%s: message repeats detail", name)
		for i, e := range want.Errors {
			if assert.Less(t, i, len(have.Errors), name) {
				assert.Equal(t, e.Pointer, have.Errors[i].Pointer, name)
				assert.Equal(t, e.Parameter, have.Errors[i].Parameter, name)
				assert.Equal(t, normalDetail(e.Message), normalDetail(have.Errors[i].Message), name)
			}
		}
	}
	st, h, b := s.do(t, http.MethodGet, "/export-tasks", "", "", nil)
	problem("ProblemUnauthorized", st, h, b)
	var dry exporttask.DryRun
	_, _, b = s.do(t, http.MethodPost, "/export-tasks/estimate", exWriteKey, "application/json", examples["CreateRasterPolygon"])
	require.NoError(t, json.Unmarshal(b, &dry))
	_, _, b = s.do(t, http.MethodGet, "/export-tasks/1", exReadKey, "", nil)
	var first exporttask.Task
	require.NoError(t, json.Unmarshal(b, &first))
	assert.Equal(t, first.EstimatedSize, dry.EstimatedSize, "the dry run's estimate is the create's")
	// The time follows how long the server's exports took since the
	// create (export.Exporter.Estimate scales it by at most 32 and at
	// least a quarter), so it may differ from the create's.
	assert.GreaterOrEqual(t, dry.EstimatedTime, max(1, first.EstimatedTime/4), "the dry run's time")
	assert.LessOrEqual(t, dry.EstimatedTime, 32*first.EstimatedTime, "the dry run's time")
	require.NotNil(t, dry.RemainingQuotaBytes)
	assert.Less(t, *dry.RemainingQuotaBytes, dry.QuotaBytes, "the completed tasks hold part of the quota")
	st, b = s.create(t, []byte(`{"catalogRecordID":"`+demoRaster+`","domain":"raster","artifactCRS":"4326",`+
		`"ROI":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon",`+
		`"coordinates":[[[34.78,31.25],[34.82,31.25],[34.82,31.29],[34.78,31.29]]]}}]},`+
		`"webhook":[{"url":"https://hooks.example.org/exports","events":["TASK_FAILED","TASK_FAILED"]}]}`))
	problem("ProblemValidation", st, nil, b)
	st, b = s.create(t, []byte(`{"catalogRecordID":"`+demoRaster+`","domain":"RASTER","artifactCRS":"4326",`+
		`"webhok":[{"url":"https://hooks.example.org/exports","events":["TASK_COMPLETED"]}]}`))
	problem("ProblemUnknownMember", st, nil, b)
	st, h, b = s.do(t, http.MethodGet, "/export-tasks/abc", exReadKey, "", nil)
	problem("ProblemBadParameter", st, h, b)
	st, h, b = s.do(t, http.MethodPost, "/export-tasks", exReadKey, "application/json", examples["CreateDEMWholeRecord"])
	problem("ProblemForbidden", st, h, b)
	st, h, b = s.do(t, http.MethodGet, "/export-tasks/4242", exReadKey, "", nil)
	problem("ProblemNotFound", st, h, b)
	st, b = s.create(t, bytes.Replace(examples["CreateDEMWholeRecord"], []byte(demoDEM), []byte("0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05"), 1))
	problem("ProblemRecordNotFound", st, nil, b)
	st, h, b = s.do(t, http.MethodPost, "/export-tasks", exWriteKey, "application/json", bytes.Repeat([]byte(" "), 1<<20+1))
	problem("ProblemTooLarge", st, h, b)
	st, h, b = s.do(t, http.MethodPost, "/export-tasks", exWriteKey, "text/plain", examples["CreateDEMWholeRecord"])
	problem("ProblemUnsupportedMediaType", st, h, b)
	st, _ = s.create(t, examples["CreateDEMWholeRecord"], "Idempotency-Key", "order-42")
	require.Equal(t, http.StatusCreated, st)
	st, b = s.create(t, examples["CreateRasterPolygon"], "Idempotency-Key", "order-42")
	problem("ProblemIdempotencyKeyReused", st, nil, b)
	st, h, b = s.do(t, http.MethodPost, "/export-tasks/1/deliveries/4242/redeliver", exWriteKey, "", nil)
	problem("ProblemDeliveryNotFound", st, h, b)

	// A download of the first task's GeoPackage with a failed If-Match,
	// then with more ranges than are served.
	gpkg := "/export-tasks/1/artifacts/" + demoRaster + ".gpkg"
	st, h, b = s.do(t, http.MethodGet, gpkg, exReadKey, "", nil, "If-Match", `"another"`)
	problem("ProblemPreconditionFailed", st, h, b)
	st, h, b = s.do(t, http.MethodGet, gpkg, exReadKey, "", nil, "Range", "bytes=0-0,2-2,4-4,6-6,8-8,10-10,12-12,14-14,16-16,18-18,20-20,22-22")
	problem("ProblemRangeNotSatisfiable", st, h, b)

	// A quota of 1 byte and one create a minute: the first create finds
	// the quota exhausted, the second the rate spent.
	small := startDemoServer(t, checker, "-quota", "1", "-create-rate", "0.0167", "-create-burst", "1")
	st, b = small.create(t, examples["CreateDEMWholeRecord"])
	problem("ProblemQuota", st, nil, b)
	st, b = small.create(t, examples["CreateDEMWholeRecord"])
	problem("ProblemTooManyRequests", st, nil, b)

	// What this test cannot bring about on purpose, and why.
	notSent := map[string]string{
		"ProblemInternal":            "needs a failing store",
		"ProblemStorageFull":         "needs a full disk (TestFullDisk brings one about)",
		"ProblemUnavailable":         "needs an unreachable store",
		"ProblemArtifactExpired":     "needs a task past its retention",
		"ProblemArtifactNotReady":    "needs a task caught before it completes",
		"ProblemDeliveryPending":     "needs a delivery caught while pending",
		"ProblemTooManyRedeliveries": "needs 20 redeliveries in a second",
		"CreateRasterImageryJPEG": "needs an imagery record, which the demo catalog does not hold " +
			"(export/raster's TestImageryTileFormats exports one with each tileFormat)",
	}
	var left []string
	for name := range examples {
		if covered[name] || notSent[name] != "" || !strings.HasPrefix(name, "Problem") && !strings.HasPrefix(name, "Create") {
			continue
		}
		left = append(left, name)
	}
	sort.Strings(left)
	assert.Empty(t, left, "examples this test neither sends nor explains")
}

// demoRaster and demoDEM are demo catalog ids the examples use.
const (
	demoRaster = "8b867544-2dab-43a1-be6e-f23ec83c19b4"
	demoDEM    = "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"
)

// waitFinal waits, with the Go client, until task id's status is final.
func waitFinal(t *testing.T, s exampleServer, id int64) exporttask.Task {
	t.Helper()
	c, err := client.New(s.url, exReadKey, client.WithHTTPClient(s.hc))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	task, err := c.Wait(ctx, id, 50*time.Millisecond)
	require.NoError(t, err)
	return task
}

// memberNames returns the sorted top-level member names of a JSON object.
func memberNames(t *testing.T, b []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &m), "%s", b)
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
