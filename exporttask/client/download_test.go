package client_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
)

// fileServer serves data as an artifact does (strong ETag, Range,
// If-Range), cutting every answer after cut bytes of body when cut > 0,
// and records the Range and If-Range of each request.
type fileServer struct {
	data []byte
	etag string
	cut  int

	mu     sync.Mutex
	ranges []string
}

func (f *fileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.ranges = append(f.ranges, r.Header.Get("Range")+"|"+r.Header.Get("If-Range"))
	f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer k" {
		http.Error(w, "no key", http.StatusUnauthorized)
		return
	}
	w.Header().Set("ETag", f.etag)
	var out http.ResponseWriter = w
	if f.cut > 0 {
		out = &cutWriter{ResponseWriter: w, left: f.cut}
	}
	http.ServeContent(out, r, "", time.Time{}, bytes.NewReader(f.data))
}

// cutWriter stops writing the body after left bytes; the server then
// closes the connection, as Content-Length was not met.
type cutWriter struct {
	http.ResponseWriter
	left int
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, http.ErrHandlerTimeout
	}
	if len(p) > c.left {
		p = p[:c.left]
	}
	c.left -= len(p)
	return c.ResponseWriter.Write(p)
}

func artifactOf(t *testing.T, data []byte, url string) exporttask.Artifact {
	t.Helper()
	sum := sha256.Sum256(data)
	return exporttask.Artifact{Name: "x.tif", Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), URL: url}
}

func testData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

func newFileClient(t *testing.T, f *fileServer) (*client.Client, string) {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "k")
	require.NoError(t, err)
	return c, srv.URL + "/export-tasks/1/artifacts/x.tif"
}

// TestDownloadResumesACutConnection: every answer is cut after 10,000
// bytes; the download goes on with Range and If-Range until it has the
// whole file, and checks it.
func TestDownloadResumesACutConnection(t *testing.T) {
	data := testData(45_000)
	a := artifactOf(t, data, "")
	f := &fileServer{data: data, etag: `"` + a.SHA256 + `"`, cut: 10_000}
	c, url := newFileClient(t, f)
	a.URL = url
	var got bytes.Buffer
	n, err := c.Download(t.Context(), a, &got)
	require.NoError(t, err)
	assert.Equal(t, int64(len(data)), n)
	assert.Equal(t, data, got.Bytes())
	assert.Equal(t, []string{"|", "bytes=10000-|" + f.etag, "bytes=20000-|" + f.etag,
		"bytes=30000-|" + f.etag, "bytes=40000-|" + f.etag}, f.ranges)
}

// TestDownloadOfAChangedFileStops: when If-Range fails the server sends the
// whole (new) file; the download cannot continue the old bytes.
func TestDownloadOfAChangedFileStops(t *testing.T) {
	data := testData(30_000)
	a := artifactOf(t, data, "")
	f := &fileServer{data: data, etag: `"another"`, cut: 10_000}
	c, url := newFileClient(t, f)
	a.URL = url
	_, err := c.Download(t.Context(), a, &bytes.Buffer{})
	assert.ErrorIs(t, err, client.ErrArtifactChanged)
}

func TestDownloadMismatch(t *testing.T) {
	data := testData(5_000)
	a := artifactOf(t, data, "")
	f := &fileServer{data: data, etag: `"` + a.SHA256 + `"`}
	c, url := newFileClient(t, f)

	bad := a
	bad.URL, bad.SHA256 = url, hex.EncodeToString(make([]byte, 32))
	_, err := c.Download(t.Context(), bad, &bytes.Buffer{})
	var mm *client.MismatchError
	require.ErrorAs(t, err, &mm)
	assert.Equal(t, a.SHA256, mm.GotSHA256)
	assert.Contains(t, err.Error(), "SHA-256")

	short := a
	short.URL, short.Size = url, 4_000
	_, err = c.Download(t.Context(), short, &bytes.Buffer{})
	require.ErrorAs(t, err, &mm)
	assert.Equal(t, int64(5_000), mm.GotSize)
}

func TestDownloadProblem(t *testing.T) {
	data := testData(100)
	f := &fileServer{data: data}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	url := srv.URL + "/export-tasks/1/artifacts/x.tif"
	wrong, err := client.New(srv.URL, "wrong")
	require.NoError(t, err)
	_, err = wrong.Download(t.Context(), artifactOf(t, data, url), &bytes.Buffer{})
	var p *exporttask.Problem
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusUnauthorized, p.Status)
	assert.Len(t, f.ranges, 1, "an answer is not retried")
}

// TestDownloadFileGoesOnFromAPartFile: a .part file left by an interrupted
// call is continued, and only the checked file appears under its name.
func TestDownloadFileGoesOnFromAPartFile(t *testing.T) {
	data := testData(20_000)
	a := artifactOf(t, data, "")
	f := &fileServer{data: data, etag: `"` + a.SHA256 + `"`}
	c, url := newFileClient(t, f)
	a.URL = url
	path := filepath.Join(t.TempDir(), "x.tif")
	require.NoError(t, os.WriteFile(path+".part", data[:12_345], 0o644))

	require.NoError(t, c.DownloadFile(t.Context(), a, path))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, data, got)
	assert.NoFileExists(t, path+".part")
	assert.Equal(t, []string{"bytes=" + strconv.Itoa(12_345) + "-|" + f.etag}, f.ranges)

	// A part file of another content fails the check and is removed.
	other := append([]byte{}, data[:12_345]...)
	other[0] ^= 1
	require.NoError(t, os.WriteFile(path+".part", other, 0o644))
	err = c.DownloadFile(t.Context(), a, filepath.Join(filepath.Dir(path), "x.tif"))
	var mm *client.MismatchError
	require.ErrorAs(t, err, &mm)
	assert.NoFileExists(t, path+".part")
}

// TestDownloadFromTheServer downloads every artifact of a completed task
// from a real server, each answer checked against the OpenAPI description.
func TestDownloadFromTheServer(t *testing.T) {
	h := newHarness(t)
	task := h.create(t, h.sampleRequest(1))
	done, err := h.client.Wait(t.Context(), task.ID, 5*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, exporttask.StatusCompleted, done.Status)
	require.NotEmpty(t, done.Artifacts)
	for _, a := range done.Artifacts {
		var b bytes.Buffer
		n, err := h.client.Download(t.Context(), a, &b)
		require.NoError(t, err, a.Name)
		assert.Equal(t, a.Size, n, a.Name)
		sum := sha256.Sum256(b.Bytes())
		assert.Equal(t, a.SHA256, hex.EncodeToString(sum[:]), a.Name)
	}
}
