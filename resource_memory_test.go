package viewer

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/openapi-viewer/viewer/internal/specdoc"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompact(t *testing.T) {
	spare := make([]byte, 10, 1000)
	copy(spare, "0123456789")
	out := compact(spare)
	assert.Equal(t, "0123456789", string(out))
	assert.Less(t, cap(out), 100, "the spare capacity is dropped")

	tight := make([]byte, 100, 102)
	out = compact(tight)
	assert.Same(t, &tight[0], &out[0], "a slice with little spare capacity is kept as is")
}

// TestServedBytesKeepNoBuffer checks that what the router keeps of a
// document and of its compressed variants is about their size: a large
// document must not cost the router twice its size or more in buffer
// capacity (json.Indent reserves twice the input). Allocation size classes
// round small slices up by at most an eighth.
func TestServedBytesKeepNoBuffer(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString(`{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {`)
	for i := range 2000 {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `"/items/%d": {"get": {"summary": "item %d", "responses": {"200": {"description": "ok"}}}}`, i, i)
	}
	doc.WriteString("}}")
	yamlDoc, err := os.ReadFile("testdata/wild/petstore-expanded.yaml")
	require.NoError(t, err)

	for name, src := range map[string][]byte{"json": doc.Bytes(), "yaml": yamlDoc} {
		s, err := specdoc.Load(src, nil, "FilePathOrSpec", specdoc.UIVersion{})
		require.NoError(t, err, name)
		assert.LessOrEqual(t, cap(s.JSON)-len(s.JSON), len(s.JSON)/8, "%s: spare capacity of the JSON", name)

		r := newResource("openapi.json", jsonContentType, s.JSON, true, nil)
		for e := encGzip; e < numEncodings; e++ {
			v := r.variant(e, nil)
			require.NotNil(t, v, "%s: %v", name, e)
			assert.LessOrEqual(t, cap(v.body)-len(v.body), len(v.body)/8, "%s: spare capacity of the %v bytes", name, e)
		}
	}
}

// brotliWindowBits reads the window size (log2) from a brotli stream's
// header (RFC 7932, section 9.1).
func brotliWindowBits(t *testing.T, b []byte) int {
	t.Helper()
	require.GreaterOrEqual(t, len(b), 1)
	bits := uint(b[0])
	if len(b) > 1 {
		bits |= uint(b[1]) << 8
	}
	if bits&1 == 0 {
		return 16
	}
	if n := (bits >> 1) & 7; n != 0 {
		return 17 + int(n)
	}
	m := (bits >> 4) & 7
	require.NotEqual(t, uint(1), m, "large-window brotli")
	if m == 0 {
		return 17
	}
	return 8 + int(m)
}

// TestBrotliWindowIsBounded checks the encoder settings that bound the
// memory a compression takes: a window no larger than the body, at most
// 64 kB up to 4 MB of body and 256 kB beyond; and that the output decodes.
func TestBrotliWindowIsBounded(t *testing.T) {
	text := func(n int) []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, `{"path": "/items/%d", "summary": "item number %d"},`+"\n", i, i*7919%1000)
		}
		return b.Bytes()
	}
	for _, c := range []struct {
		size, wbits int
	}{{3000, 12}, {200 << 10, 16}, {brotliLargeBody, 16}, {brotliLargeBody + 1<<20, 18}} {
		body := text(c.size)[:c.size]
		out, err := compress(encBrotli, body)
		require.NoError(t, err)
		assert.Equal(t, c.wbits, brotliWindowBits(t, out), "%d bytes", len(body))
		back, err := io.ReadAll(brotli.NewReader(bytes.NewReader(out)))
		require.NoError(t, err)
		assert.Equal(t, body, back)
	}
}

// TestLargeVariantIsFollowedByACollection checks that making a variant of
// a body of collectAfterBytes or more, or the lazily made body itself, runs
// a garbage collection, so that the encoder's garbage does not pile up
// until the heap doubles (bench/README.md, issue 27); a small body's does
// not.
func TestLargeVariantIsFollowedByACollection(t *testing.T) {
	forced := func() uint32 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.NumForcedGC
	}
	large := bytes.Repeat([]byte(`{"key": "value", "n": 12345}`+"\n"), collectAfterBytes/28+1)
	require.GreaterOrEqual(t, len(large), collectAfterBytes)
	r := newLazyResource("large.yaml", "application/yaml", func() []byte { return bytes.Clone(large) })
	for _, e := range []contentEncoding{encIdentity, encGzip, encBrotli} {
		before := forced()
		require.NotNil(t, r.variant(e, nil), e.String())
		assert.Greater(t, forced(), before, "a collection after making the %s variant of %d bytes", e, len(large))
	}

	var work sync.Mutex
	small := newResource("small.json", "application/json", bytes.Repeat([]byte("x"), 100<<10), true, nil)
	before := forced()
	require.NotNil(t, small.variant(encGzip, &work))
	assert.Equal(t, before, forced(), "no collection after a small body's variant")
}
