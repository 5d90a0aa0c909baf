package viewer_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// githubSpec returns the path of GitHub's REST description (13 MB of JSON)
// from VIEWER_GITHUB_SPEC, or skips; scripts/fetch-github-spec.sh downloads
// it.
func githubSpec(tb testing.TB) string {
	p := os.Getenv("VIEWER_GITHUB_SPEC")
	if p == "" {
		tb.Skip("VIEWER_GITHUB_SPEC is not set: export VIEWER_GITHUB_SPEC=$(scripts/fetch-github-spec.sh)")
	}
	return p
}

// BenchmarkSetup measures Setup (read, parse, check, convert, hash, render;
// it compresses nothing); for the large document it also reports the peak
// heap growth during Setup, as a multiple of the document's size.
func BenchmarkSetup(b *testing.B) {
	b.Run("petstore", func(b *testing.B) {
		benchSetup(b, "testdata/wild/petstore-expanded.yaml")
	})
	b.Run("github-13MB", func(b *testing.B) {
		benchSetup(b, githubSpec(b))
	})
}

func benchSetup(b *testing.B, path string) {
	info, err := os.Stat(path)
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(info.Size())
	var peak float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		sampler := startHeapSampler()
		r := viewer.New(viewer.Config{FilePathOrSpec: path, UIPath: "/docs", RawPath: "/openapi"})
		b.StartTimer()
		require.NoError(b, r.Setup())
		b.StopTimer()
		peak = max(peak, float64(sampler.stop())/float64(info.Size()))
		b.StartTimer()
	}
	b.ReportMetric(peak, "peak-heap/doc")
}

// heapSampler records the largest heap growth seen while it runs.
type heapSampler struct {
	base, peak atomic.Uint64
	done       chan struct{}
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	s := &heapSampler{done: make(chan struct{})}
	s.base.Store(heapBytes())
	go func() {
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			if h := heapBytes(); h > s.peak.Load() {
				s.peak.Store(h)
			}
			select {
			case <-s.done:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *heapSampler) stop() uint64 {
	if h := heapBytes(); h > s.peak.Load() {
		s.peak.Store(h)
	}
	close(s.done)
	if s.peak.Load() < s.base.Load() {
		return 0
	}
	return s.peak.Load() - s.base.Load()
}

// discard is a ResponseWriter that keeps nothing, so that the benchmarks
// count the viewer's allocations, not a recorder's.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// BenchmarkServe measures answering precomputed responses.
func BenchmarkServe(b *testing.B) {
	r := viewer.New(viewer.Config{FilePathOrSpec: "testdata/wild/petstore-expanded.yaml", UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(b, r.Setup())
	h := r.GetRouter()
	etagOf := func(target, enc string) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Header.Set("Accept-Encoding", enc)
		h.ServeHTTP(rec, req)
		return rec.Header().Get("ETag")
	}
	cases := []struct {
		name, target string
		header       http.Header
	}{
		{"page", "/docs/", http.Header{"Accept-Encoding": {"gzip, deflate, br"}}},
		{"bundle-br", "/docs/swagger-ui-bundle.js", http.Header{"Accept-Encoding": {"gzip, deflate, br"}}},
		{"bundle-gzip", "/docs/swagger-ui-bundle.js", http.Header{"Accept-Encoding": {"gzip"}}},
		{"bundle-identity", "/docs/swagger-ui-bundle.js", http.Header{}},
		{"spec-json", "/openapi.json", http.Header{}},
		{"spec-json-gzip", "/openapi.json", http.Header{"Accept-Encoding": {"gzip"}}},
		{"spec-yaml", "/openapi.yaml", http.Header{}},
		{"spec-not-modified", "/openapi.json", http.Header{"If-None-Match": {etagOf("/openapi.json", "")}}},
		{"bundle-not-modified", "/docs/swagger-ui-bundle.js", http.Header{"Accept-Encoding": {"br"}, "If-None-Match": {etagOf("/docs/swagger-ui-bundle.js", "br")}}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, c.target, nil)
			req.Header = c.header
			w := &discard{h: http.Header{}}
			h.ServeHTTP(w, req) // makes the variant, on first request
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				clear(w.h)
				h.ServeHTTP(w, req)
			}
		})
	}
}
