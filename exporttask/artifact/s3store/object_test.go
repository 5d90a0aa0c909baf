package s3store_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
)

// TestOpenReadsLazily serves a 100,000-byte object from a recording fake
// and checks what a ranged download through http.ServeContent asks of S3:
// one HEAD at Open, then one GET from the range's start, conditional on
// the ETag; never the whole object.
func TestOpenReadsLazily(t *testing.T) {
	const size = 100_000
	data := strings.Repeat("0123456789", size/10)
	var (
		mu       sync.Mutex
		requests []string
	)
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.Method+" "+r.Header.Get("Range")+" "+r.Header.Get("If-Match"))
		mu.Unlock()
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).Format(http.TimeFormat))
		if r.Method == http.MethodHead {
			w.Header().Set("Content-Length", strconv.Itoa(size))
			return
		}
		from, err := rangeStart(r.Header.Get("Range"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Range", "bytes "+strconv.Itoa(from)+"-"+strconv.Itoa(size-1)+"/"+strconv.Itoa(size))
		w.Header().Set("Content-Length", strconv.Itoa(size-from))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = io.WriteString(w, data[from:])
	}))
	defer fake.Close()

	s, err := s3store.New(s3store.Config{Bucket: "b", Endpoint: fake.URL, AccessKeyID: "id", SecretAccessKey: "secret"})
	require.NoError(t, err)
	o, err := s.Open(t.Context(), "1/a.bin")
	require.NoError(t, err)
	defer o.Close()
	assert.Equal(t, artifact.Info{Key: "1/a.bin", Size: size, ModTime: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}, o.Info())

	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Range", "bytes=50000-50009")
	rec := httptest.NewRecorder()
	http.ServeContent(rec, req, "a.bin", o.Info().ModTime, o)
	assert.Equal(t, http.StatusPartialContent, rec.Code)
	assert.Equal(t, data[50_000:50_010], rec.Body.String())

	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{`HEAD  `, `GET bytes=50000- "v1"`}, requests)
}

// rangeStart reads the start of an open-ended "bytes=N-" range.
func rangeStart(rangeHeader string) (int, error) {
	return strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rangeHeader, "bytes="), "-"))
}
