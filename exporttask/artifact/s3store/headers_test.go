package s3store_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
)

// TestPartHeaders checks, against a recording fake, how parts travel: an
// unsigned payload (no second SHA-256 pass over each part) with a CRC32C
// checksum that the server verifies, on a path-style URL.
func TestPartHeaders(t *testing.T) {
	var (
		mu    sync.Mutex
		parts []http.Header
		paths []string
	)
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		if r.URL.Query().Has("partNumber") {
			parts = append(parts, r.Header.Clone())
		}
		mu.Unlock()
		w.Header().Set("ETag", `"etag"`)
		if r.Method == http.MethodPost {
			_, _ = io.WriteString(w, `<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>u1</UploadId></InitiateMultipartUploadResult>`)
		}
	}))
	defer fake.Close()

	s, err := s3store.New(s3store.Config{Bucket: "b", Endpoint: fake.URL, AccessKeyID: "id", SecretAccessKey: "secret"})
	require.NoError(t, err)
	w, err := s.Create(t.Context(), "1/a.bin")
	require.NoError(t, err)
	defer w.Abort()
	_, err = w.Write(make([]byte, s3store.DefaultPartSize+1))
	require.NoError(t, err)
	_, _ = w.Commit() // sends both parts; the fake's answers do not matter

	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, "POST /b/1/a.bin", paths[0], "path-style for a loopback IP endpoint")
	require.Len(t, parts, 2)
	for _, h := range parts {
		assert.Equal(t, "UNSIGNED-PAYLOAD", h.Get("X-Amz-Content-Sha256"))
		assert.NotEmpty(t, h.Get("X-Amz-Checksum-Crc32c")+h.Get("X-Amz-Trailer"), "a CRC32C checksum, in a header or a trailer")
	}
}
