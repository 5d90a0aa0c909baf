package viewer

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lazyTestRouter sets up a router for a generated document large enough
// to be worth compressing in either encoding, and returns it with the
// resource that serves the document's JSON.
func lazyTestRouter(t *testing.T) (*OpenapiViewerRouter, *resource) {
	t.Helper()
	var doc bytes.Buffer
	doc.WriteString(`{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {`)
	for i := range 500 {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `"/items/%d": {"get": {"summary": "item %d", "responses": {"200": {"description": "ok"}}}}`, i, i)
	}
	doc.WriteString("}}")
	r := New(Config{FilePathOrSpec: doc.Bytes(), UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, r.Setup())
	rt := r.state.Load().routes["/openapi.json"]
	require.NotNil(t, rt)
	return r, rt.res
}

func made(r *resource, e contentEncoding) bool { return r.variants[e].ok }

func getEncoded(h http.Handler, target, acceptEncoding string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestCompressionIsLazyPerEncoding checks that Setup compresses nothing
// and that a request makes only the encoding it is answered in.
func TestCompressionIsLazyPerEncoding(t *testing.T) {
	r, res := lazyTestRouter(t)
	assert.False(t, made(res, encGzip), "gzip made by Setup")
	assert.False(t, made(res, encBrotli), "brotli made by Setup")

	rec := getEncoded(r, "/openapi.json", "")
	assert.Empty(t, rec.Header().Get("Content-Encoding"))
	assert.False(t, made(res, encGzip) || made(res, encBrotli), "a request without Accept-Encoding made a compressed variant")

	rec = getEncoded(r, "/openapi.json", "gzip")
	assert.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
	assert.True(t, made(res, encGzip))
	assert.False(t, made(res, encBrotli), "a gzip request made brotli too")

	rec = getEncoded(r, "/openapi.json", "gzip, br")
	assert.Equal(t, "br", rec.Header().Get("Content-Encoding"))
	assert.True(t, made(res, encBrotli))

	yaml := r.state.Load().routes["/openapi.yaml"].res
	assert.False(t, yaml.variants[encIdentity].ok, "YAML made before it was asked for")
	rec = getEncoded(r, "/openapi.yaml", "br")
	assert.Equal(t, "br", rec.Header().Get("Content-Encoding"))
	assert.True(t, yaml.variants[encIdentity].ok)
	assert.False(t, made(yaml, encGzip), "a brotli request for the YAML made gzip too")
}

// TestEncodingNotSmallerFallsBack checks that when the preferred encoding
// turns out no smaller than identity, the next acceptable one is sent.
func TestEncodingNotSmallerFallsBack(t *testing.T) {
	// Four bytes: neither encoding's framing fits in that.
	res := newResource("tiny.txt", "text/plain; charset=utf-8", []byte("abcd"), true, nil)
	v := res.pick([]string{"br, gzip"}, nil)
	assert.Nil(t, v.encoding, "identity, since no compressed variant is smaller")
	assert.Nil(t, res.variant(encBrotli, nil))
	assert.Nil(t, res.variant(encGzip, nil))

	// Identity excluded: still identity, the one variant there is.
	v = res.pick([]string{"br, identity;q=0"}, nil)
	assert.Equal(t, "4", v.length[0])
}

// TestCompressionWaitsForTheRouterWork checks that making a variant holds
// the router's work lock: while it is held elsewhere (as by another
// compression), a request needing a new variant is not answered, and it is
// once the lock is released.
func TestCompressionWaitsForTheRouterWork(t *testing.T) {
	r, res := lazyTestRouter(t)
	st := r.state.Load()
	st.work.Lock()
	done := make(chan string)
	go func() { done <- getEncoded(r, "/openapi.json", "br").Header().Get("Content-Encoding") }()
	select {
	case enc := <-done:
		st.work.Unlock()
		t.Fatalf("answered (%q) while the router's work lock was held", enc)
	case <-time.After(100 * time.Millisecond):
		// Not a wait for success: a correct router cannot answer before
		// the unlock below, however long this waits.
	}
	st.work.Unlock()
	select {
	case enc := <-done:
		assert.Equal(t, "br", enc)
		assert.True(t, made(res, encBrotli))
	case <-time.After(10 * time.Second):
		t.Fatal("no answer after the work lock was released")
	}

	// A variant already made needs no lock.
	st.work.Lock()
	defer st.work.Unlock()
	assert.Equal(t, "br", getEncoded(r, "/openapi.json", "br").Header().Get("Content-Encoding"))
}
