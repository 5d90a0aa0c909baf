package viewer_test

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

func specWithTitle(title string) string {
	return "openapi: 3.0.3\ninfo: {title: " + title + ", version: '1'}\npaths: {}\n"
}

func writeSpecFile(t *testing.T, name, data string) {
	t.Helper()
	require.NoError(t, os.WriteFile(name, []byte(data), 0o600))
}

// replaceFile writes a file by renaming a new one over it, as many editors
// do, so that a watcher never sees it half written.
func replaceFile(t *testing.T, name, data string) {
	t.Helper()
	tmp := name + ".tmp"
	writeSpecFile(t, tmp, data)
	require.NoError(t, os.Rename(tmp, name))
}

func TestReloadSwapsAndKeepsTheOldOnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "api.yaml")
	writeSpecFile(t, file, specWithTitle("One"))
	r := viewer.New(viewer.Config{FilePathOrSpec: file, UIPath: "/d", RawPath: "/s"})
	require.ErrorIs(t, r.Reload(), viewer.ErrNotSetup)
	require.NoError(t, r.Setup())
	mw := r.Middleware(http.NotFoundHandler())

	res1, body := get(t, r, "/s.json")
	assert.Contains(t, body, `"title": "One"`)

	writeSpecFile(t, file, specWithTitle("Two and longer"))
	require.NoError(t, r.Reload())
	res2, body := get(t, r, "/s.json")
	assert.Contains(t, body, `"title": "Two and longer"`)
	assert.NotEqual(t, res1.Header.Get("ETag"), res2.Header.Get("ETag"))
	_, body = get(t, mw, "/s.yaml")
	assert.Contains(t, body, "title: Two and longer", "a Middleware made before the reload serves the new document")
	_, page := get(t, r, "/d/")
	assert.Contains(t, page, "<title>Two and longer</title>")

	// A broken document: Reload says why, and the old one stays served.
	writeSpecFile(t, file, "openapi: 3.0.3\ninfo: {title: Three}\n")
	err := r.Reload()
	require.ErrorIs(t, err, viewer.ErrInvalidSpec)
	assert.Contains(t, err.Error(), "info.version")
	_, body = get(t, r, "/s.json")
	assert.Contains(t, body, `"title": "Two and longer"`)
	require.NoError(t, os.Remove(file))
	require.ErrorIs(t, r.Reload(), os.ErrNotExist)
	_, body = get(t, r, "/s.json")
	assert.Contains(t, body, `"title": "Two and longer"`)
}

// blockingWriter holds the first Write until release is closed.
type blockingWriter struct {
	*httptest.ResponseRecorder
	writing chan struct{}
	release chan struct{}
	once    sync.Once
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() {
		close(w.writing)
		<-w.release
	})
	return w.ResponseRecorder.Write(p)
}

func TestReloadLeavesInFlightRequestsAlone(t *testing.T) {
	file := filepath.Join(t.TempDir(), "api.yaml")
	writeSpecFile(t, file, specWithTitle("Before"))
	r := viewer.New(viewer.Config{FilePathOrSpec: file, UIPath: "/d", RawPath: "/s"})
	require.NoError(t, r.Setup())

	w := &blockingWriter{ResponseRecorder: httptest.NewRecorder(), writing: make(chan struct{}), release: make(chan struct{})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/s.json", nil))
	}()
	<-w.writing // the request is being answered
	writeSpecFile(t, file, specWithTitle("After"))
	require.NoError(t, r.Reload())
	close(w.release)
	<-served
	assert.Contains(t, w.Body.String(), `"title": "Before"`)
	assert.Equal(t, w.Header().Get("Content-Length"), fmt.Sprint(w.Body.Len()), "the whole old body")
	_, body := get(t, r, "/s.json")
	assert.Contains(t, body, `"title": "After"`)
}

func TestReloadUnderLoadServesWholeDocuments(t *testing.T) {
	file := filepath.Join(t.TempDir(), "api.yaml")
	writeSpecFile(t, file, specWithTitle("A"))
	r := viewer.New(viewer.Config{FilePathOrSpec: file, UIPath: "/d", RawPath: "/s"})
	require.NoError(t, r.Setup())
	want := map[string]bool{}
	for _, title := range []string{"A", "B"} {
		writeSpecFile(t, file, specWithTitle(title))
		require.NoError(t, r.Reload())
		_, body := get(t, r, "/s.yaml")
		want[body] = true
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				rec := httptest.NewRecorder()
				r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/s.yaml", nil))
				if !want[rec.Body.String()] {
					t.Errorf("a response mixes documents: %q", rec.Body.String())
					return
				}
			}
		}()
	}
	for i := 0; i < 20; i++ {
		writeSpecFile(t, file, specWithTitle(string(rune('A'+i%2))))
		require.NoError(t, r.Reload())
	}
	close(stop)
	wg.Wait()
}

func TestWatchReloadsEditedFiles(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "api.yaml")
	part := filepath.Join(dir, "pet.yaml")
	writeSpecFile(t, root, "openapi: 3.0.3\ninfo: {title: Watched, version: '1'}\npaths:\n  /pets:\n    $ref: pet.yaml\n")
	writeSpecFile(t, part, "get: {summary: first, responses: {'200': {description: ok}}}\n")

	r := viewer.New(viewer.Config{FilePathOrSpec: root, UIPath: "/d", RawPath: "/s", Watch: 5 * time.Millisecond})
	reloads := make(chan error, 16)
	viewer.OnReload(r, func(err error) { reloads <- err })
	require.NoError(t, r.Setup())
	t.Cleanup(func() { _ = r.Close() })
	_, body := get(t, r, "/s.json")
	require.Contains(t, body, "first")

	// An edit of a file that only a $ref names shows on the next request.
	replaceFile(t, part, "get: {summary: second edit, responses: {'200': {description: ok}}}\n")
	require.NoError(t, waitReload(t, reloads))
	_, body = get(t, r, "/s.json")
	assert.Contains(t, body, "second edit")

	// A broken edit is reported, and the last good document stays.
	replaceFile(t, part, "get: {summary: broken, summary: twice}\n")
	err := waitReload(t, reloads)
	require.ErrorIs(t, err, viewer.ErrInvalidSpec)
	assert.Contains(t, err.Error(), "pet.yaml:1:")
	_, body = get(t, r, "/s.json")
	assert.Contains(t, body, "second edit")

	// Fixing it shows the fix.
	replaceFile(t, root, "openapi: 3.0.3\ninfo: {title: Watched again, version: '1'}\npaths:\n  /pets:\n    $ref: pet.yaml\n")
	replaceFile(t, part, "get: {summary: fixed, responses: {'200': {description: ok}}}\n")
	for {
		_ = waitReload(t, reloads) // the first of two edits may be seen alone
		if _, body = get(t, r, "/s.json"); strings.Contains(body, "fixed") && strings.Contains(body, "Watched again") {
			break
		}
	}

	// Close stops the watcher and is idempotent.
	require.NoError(t, r.Close())
	select {
	case <-viewer.WatchDone(r):
	default:
		t.Fatal("Close returned before the watcher stopped")
	}
	require.NoError(t, r.Close())
	_, body = get(t, r, "/s.json")
	assert.Contains(t, body, "fixed", "the router still serves after Close")
}

// waitReload waits for the watcher's next reload, for at most ten seconds.
func waitReload(t *testing.T, reloads <-chan error) error {
	t.Helper()
	select {
	case err := <-reloads:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("no reload within 10s of the edit")
		return nil
	}
}

func TestCloseWithoutWatch(t *testing.T) {
	r := viewer.New(viewer.Config{FilePathOrSpec: "testdata/tiny.yaml", UIPath: "/d"})
	require.NoError(t, r.Close())
	require.NoError(t, r.Setup())
	require.NoError(t, r.Close())
	assert.Nil(t, viewer.WatchDone(r))
}

// TestWatchSeesAFileCreatedAfterItsRef: a $ref written before its file
// makes the reload fail; creating the file then reloads, with no other
// edit.
func TestWatchSeesAFileCreatedAfterItsRef(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "api.yaml")
	writeSpecFile(t, root, "openapi: 3.0.3\ninfo: {title: Watched, version: '1'}\npaths: {}\n")

	r := viewer.New(viewer.Config{FilePathOrSpec: root, UIPath: "/d", RawPath: "/s", Watch: 5 * time.Millisecond})
	reloads := make(chan error, 16)
	viewer.OnReload(r, func(err error) { reloads <- err })
	require.NoError(t, r.Setup())
	t.Cleanup(func() { _ = r.Close() })

	replaceFile(t, root, "openapi: 3.0.3\ninfo: {title: Watched, version: '1'}\npaths:\n  /pets:\n    $ref: pet.yaml\n")
	err := waitReload(t, reloads)
	require.ErrorIs(t, err, fs.ErrNotExist)

	writeSpecFile(t, filepath.Join(dir, "pet.yaml"), "get: {summary: created later, responses: {'200': {description: ok}}}\n")
	require.NoError(t, waitReload(t, reloads))
	_, body := get(t, r, "/s.json")
	assert.Contains(t, body, "created later")
}
