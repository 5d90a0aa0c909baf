package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestDownloadRangeAndConditionProblems: every Range or condition that
// cannot be served is a problem+json answer documented in openapi.yaml
// (the harness checks each response against it), with Content-Range
// naming the size on a 416.
func TestDownloadRangeAndConditionProblems(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond))
	task := h.completedTask(t, 11)
	a := task.Artifacts[0]
	path := h.pathOf(t, a)
	size := strconv.FormatInt(a.Size, 10)
	manyRanges := "bytes=" + strings.Repeat("0-0,", 69_999) + "0-0"
	past := time.Now().Add(-24 * time.Hour).UTC().Format(http.TimeFormat)
	checked := h.spec.Count()
	requests := 0

	for _, tc := range []struct {
		name   string
		header map[string]string
		status int
		detail string
	}{
		{"range ends before it starts", map[string]string{"Range": "bytes=10-5"}, http.StatusRequestedRangeNotSatisfiable, "ends before it starts"},
		{"empty suffix", map[string]string{"Range": "bytes=-0"}, http.StatusRequestedRangeNotSatisfiable, "overlaps"},
		{"first byte past the end", map[string]string{"Range": "bytes=" + size + "-"}, http.StatusRequestedRangeNotSatisfiable, "overlaps"},
		{"70,000 ranges", map[string]string{"Range": manyRanges}, http.StatusRequestedRangeNotSatisfiable, "70000 ranges; at most 8"},
		{"nine ranges", map[string]string{"Range": "bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8"}, http.StatusRequestedRangeNotSatisfiable, "at most 8"},
		{"not a number", map[string]string{"Range": "bytes=a-"}, http.StatusRequestedRangeNotSatisfiable, "not a byte range"},
		{"signed number", map[string]string{"Range": "bytes=+1-2"}, http.StatusRequestedRangeNotSatisfiable, "not a byte range"},
		{"failed If-Match", map[string]string{"If-Match": `"0000"`}, http.StatusPreconditionFailed, "If-Match"},
		{"weak If-Match", map[string]string{"If-Match": `W/"` + a.SHA256 + `"`}, http.StatusPreconditionFailed, "If-Match"},
		{"If-Unmodified-Since in the past", map[string]string{"If-Unmodified-Since": past}, http.StatusPreconditionFailed, "If-Unmodified-Since"},
		{"failed If-Match wins over Range", map[string]string{"If-Match": `"0000"`, "Range": "bytes=0-1"}, http.StatusPreconditionFailed, "If-Match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				resp, body := h.do(t, request{method: method, path: path, key: h.Key, header: tc.header})
				if method == http.MethodHead {
					assert.Equal(t, tc.status, resp.StatusCode)
					assert.Empty(t, body)
					continue
				}
				requests++ // a GET: the description has no HEAD operations to check a HEAD against
				p := assertProblem(t, resp, body, tc.status, exporttask.ProblemTypeBlank)
				assert.Contains(t, p.Detail, tc.detail)
				assert.Empty(t, resp.Header.Get("Content-Disposition"), "a problem is no attachment")
				if tc.status == http.StatusRequestedRangeNotSatisfiable {
					assert.Equal(t, "bytes */"+size, resp.Header.Get("Content-Range"))
				}
			}
		})
	}
	assert.Equal(t, checked+requests, h.spec.Count(), "kin-openapi checked every GET's answer against the download operation")
}

// TestDownloadRangesServed: what is served, and when Range is ignored.
func TestDownloadRangesServed(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond))
	task := h.completedTask(t, 12)
	a := task.Artifacts[0]
	path := h.pathOf(t, a)
	_, whole := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
	require.Len(t, whole, int(a.Size))
	require.Greater(t, len(whole), 40, "the file is long enough for the cases")
	n := len(whole)
	etag := `"` + a.SHA256 + `"`
	future := time.Now().Add(24 * time.Hour).UTC().Format(http.TimeFormat)

	for _, tc := range []struct {
		name         string
		header       map[string]string
		status       int
		want         []byte
		contentRange string
	}{
		{"suffix", map[string]string{"Range": "bytes=-5"}, http.StatusPartialContent, whole[n-5:], fmt.Sprintf("bytes %d-%d/%d", n-5, n-1, n)},
		{"suffix longer than the file", map[string]string{"Range": "bytes=-99999999"}, http.StatusPartialContent, whole, fmt.Sprintf("bytes 0-%d/%d", n-1, n)},
		{"open range", map[string]string{"Range": "bytes=30-"}, http.StatusPartialContent, whole[30:], fmt.Sprintf("bytes 30-%d/%d", n-1, n)},
		{"last byte past the end", map[string]string{"Range": "bytes=30-99999999999999999999999"}, http.StatusPartialContent, whole[30:], fmt.Sprintf("bytes 30-%d/%d", n-1, n)},
		{"one unsatisfiable among satisfiable", map[string]string{"Range": "bytes=-0,2-4"}, http.StatusPartialContent, whole[2:5], fmt.Sprintf("bytes 2-4/%d", n)},
		{"overlapping ranges: the whole file", map[string]string{"Range": "bytes=0-,0-"}, http.StatusOK, whole, ""},
		{"another unit: ignored", map[string]string{"Range": "items=0-1"}, http.StatusOK, whole, ""},
		{"If-Match matches", map[string]string{"If-Match": `"x", ` + etag}, http.StatusOK, whole, ""},
		{"If-Match *", map[string]string{"If-Match": "*"}, http.StatusOK, whole, ""},
		{"If-Unmodified-Since in the future", map[string]string{"If-Unmodified-Since": future}, http.StatusOK, whole, ""},
		{"If-Range matches", map[string]string{"Range": "bytes=0-3", "If-Range": etag}, http.StatusPartialContent, whole[:4], fmt.Sprintf("bytes 0-3/%d", n)},
		{"If-Range differs: the whole file", map[string]string{"Range": "bytes=0-3", "If-Range": `"other"`}, http.StatusOK, whole, ""},
		{"If-Range differs, bad range ignored", map[string]string{"Range": "bytes=10-5", "If-Range": `"other"`}, http.StatusOK, whole, ""},
		{"If-Modified-Since in the future", map[string]string{"If-Modified-Since": future}, http.StatusNotModified, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key, header: tc.header})
			require.Equal(t, tc.status, resp.StatusCode, "body: %s", body)
			assert.Equal(t, string(tc.want), string(body))
			assert.Equal(t, tc.contentRange, resp.Header.Get("Content-Range"))
			if tc.status != http.StatusNotModified {
				assert.Equal(t, strconv.Itoa(len(tc.want)), resp.Header.Get("Content-Length"))
				assert.Equal(t, "bytes", resp.Header.Get("Accept-Ranges"))
			}
			assert.Equal(t, etag, resp.Header.Get("ETag"))
		})
	}

	t.Run("eight ranges as multipart/byteranges", func(t *testing.T) {
		spec := []string{"0-0", "2-3", "5-7", "10-12", "15-16", "20-21", "25-26", "-3"}
		resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key,
			header: map[string]string{"Range": "bytes=" + strings.Join(spec, ",")}})
		require.Equal(t, http.StatusPartialContent, resp.StatusCode)
		assert.Equal(t, strconv.Itoa(len(body)), resp.Header.Get("Content-Length"))
		mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		require.NoError(t, err)
		require.Equal(t, "multipart/byteranges", mt)
		mr := multipart.NewReader(strings.NewReader(string(body)), params["boundary"])
		wants := [][2]int{{0, 1}, {2, 4}, {5, 8}, {10, 13}, {15, 17}, {20, 22}, {25, 27}, {n - 3, n}}
		for i, w := range wants {
			part, err := mr.NextPart()
			require.NoError(t, err, "part %d", i)
			got, err := io.ReadAll(part)
			require.NoError(t, err)
			assert.Equal(t, string(whole[w[0]:w[1]]), string(got), "part %d", i)
			assert.Equal(t, fmt.Sprintf("bytes %d-%d/%d", w[0], w[1]-1, n), part.Header.Get("Content-Range"))
		}
		_, err = mr.NextPart()
		assert.ErrorIs(t, err, io.EOF, "exactly eight parts")
	})
}

// TestDownloadsRacingDismissal: GETs racing the DELETE that dismisses
// their task answer 200 (whole, right bytes), 404 or 410, never 500, and
// no request is logged at ERROR. The loops are bounded: each stops at its
// first 404 or after a fixed count.
func TestDownloadsRacingDismissal(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(10*time.Millisecond), exporttasktest.WithWorkers(4))
	const tasks, readers, maxGets = 12, 4, 200
	statuses := map[int]int{}
	var mu sync.Mutex
	for i := range tasks {
		task := h.completedTask(t, 100+i)
		a := task.Artifacts[0]
		path := h.pathOf(t, a)
		_, whole := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for range maxGets {
					resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
					mu.Lock()
					statuses[resp.StatusCode]++
					mu.Unlock()
					switch resp.StatusCode {
					case http.StatusOK:
						assert.Equal(t, whole, body)
					case http.StatusNotFound, http.StatusGone:
						return
					default:
						t.Errorf("GET racing DELETE answered %d: %s", resp.StatusCode, body)
						return
					}
				}
			}()
		}
		close(start)
		resp, body := h.do(t, request{method: http.MethodDelete, path: "/export-tasks/" + strconv.FormatInt(task.ID, 10), key: h.Key})
		assert.Equal(t, http.StatusNoContent, resp.StatusCode, "body: %s", body)
		wg.Wait()
	}
	t.Logf("statuses of the racing GETs: %v", statuses)
	assert.Zero(t, statuses[http.StatusInternalServerError])
	assert.Positive(t, statuses[http.StatusNotFound], "the GETs after the dismissal are 404")
	for _, line := range strings.Split(strings.TrimSpace(h.logs.String()), "\n") {
		var rec struct{ Level, Path, Msg string }
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		assert.False(t, rec.Level == "ERROR" && rec.Path != "", "a request logged as a server error: %s", line)
	}
}
