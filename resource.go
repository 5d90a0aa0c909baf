package viewer

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"sync"

	"github.com/andybalholm/brotli"
)

// resource is one response body the viewer serves, with every header value
// computed once. Each compressed variant is made when a request first asks
// for its encoding, once; a variant that would not be smaller than the
// identity bytes is never offered.
type resource struct {
	name         string
	contentType  []string
	cacheControl []string      // for a request whose ?v= matches version, or an unversioned resource
	staleControl []string      // for a versioned resource requested without its current version
	version      string        // expected raw query ("v=<hash>"), or "" when unversioned
	header       []headerField // set on every response (nosniff, Vary, security policy)
	compressible bool          // text: worth compressing, sent with Vary: Accept-Encoding
	make         func() []byte // the identity bytes, for resources built on first use (YAML)
	gz           []byte        // for a resource stored gzip-compressed: those bytes (see newGzipAsset)
	tag          string        // for such a resource: the ETag's hash, of gz (identity is made on first use)

	variants [numEncodings]variant
}

// variant is one encoding of a resource's bytes.
type variant struct {
	once     sync.Once
	ok       bool // false: not smaller than identity, never offered
	body     []byte
	etag     []string
	length   []string
	encoding []string // Content-Encoding, nil for identity
}

// headerField is one header of a response, its key canonical. A slice of
// them is cheaper to apply per request than ranging over a map.
type headerField struct {
	key    string
	values []string
}

// newResource returns a resource whose identity bytes are body, served
// with Cache-Control: no-cache (revalidated every time, cheaply thanks to
// the ETag). extra headers are added to every response.
func newResource(name, contentType string, body []byte, compressible bool, extra http.Header) *resource {
	r := &resource{name: name, contentType: []string{contentType}, compressible: compressible}
	r.variants[encIdentity].once.Do(func() { r.setIdentity(body) })
	r.setHeaders(extra)
	return r
}

// newAsset returns a content-addressed resource: served under a URL that
// carries its hash (see url), with immutable caching; requested with
// another or no version, it is served no-cache.
func newAsset(name, contentType string, body []byte, compressible bool) *resource {
	r := newResource(name, contentType, body, compressible, nil)
	r.version = "v=" + r.hash()
	r.cacheControl = []string{cacheImmutable}
	return r
}

// newLazyResource returns a resource whose identity bytes are made by mk
// on first use.
func newLazyResource(name, contentType string, mk func() []byte) *resource {
	r := &resource{name: name, contentType: []string{contentType}, compressible: true, make: mk}
	r.setHeaders(nil)
	return r
}

// newGzipAsset returns a content-addressed resource stored
// gzip-compressed (as a Go module may embed Swagger UI's files): gz is
// served as the gzip variant as it is; the identity bytes are decompressed
// on the first request that wants them, and the brotli variant is made on
// the first request for it, from a decompressing stream, so neither holds
// the decompressed file unless identity is asked for. Its ETags and URL
// hash are made from gz, so Setup decompresses nothing.
func newGzipAsset(name, contentType string, gz []byte) *resource {
	r := &resource{name: name, contentType: []string{contentType}, compressible: true, gz: gz}
	sum := sha256.Sum256(gz)
	r.tag = hex.EncodeToString(sum[:10])
	r.make = func() []byte {
		body, err := gunzip(gz)
		if err != nil { // cannot happen: checked by gzipSize when the asset was read
			return []byte("/* " + err.Error() + " */")
		}
		return body
	}
	g := &r.variants[encGzip]
	g.once.Do(func() {
		g.ok, g.body = true, gz
		g.etag = []string{`"` + r.tag + "-gzip" + `"`}
		g.length = []string{strconv.Itoa(len(gz))}
		g.encoding = []string{"gzip"}
	})
	r.setHeaders(nil)
	r.version = "v=" + r.tag
	r.cacheControl = []string{cacheImmutable}
	return r
}

// setHeaders fills the headers every response of r carries. A resource is
// never changed after it is built, so routers can share one.
func (r *resource) setHeaders(extra http.Header) {
	r.header = []headerField{{"X-Content-Type-Options", []string{"nosniff"}}}
	if r.compressible {
		r.header = append(r.header, headerField{"Vary", []string{"Accept-Encoding"}})
	}
	for k, v := range extra {
		r.header = append(r.header, headerField{http.CanonicalHeaderKey(k), v})
	}
	if r.cacheControl == nil {
		r.cacheControl = []string{cacheRevalidate}
	}
	r.staleControl = []string{cacheRevalidate}
}

// url returns the URL the page uses for r, relative to the page.
func (r *resource) url() string {
	if r.version == "" {
		return "./" + r.name
	}
	return "./" + r.name + "?" + r.version
}

// compact returns b, or a copy of it without the spare capacity when that
// is large: a slice made in a bytes.Buffer keeps the whole buffer allocated
// for as long as the router lives, and json.Indent alone reserves twice the
// document's size.
func compact(b []byte) []byte {
	if cap(b)-len(b) <= len(b)/16 {
		return b
	}
	return bytes.Clone(b)
}

func (r *resource) setIdentity(body []byte) {
	body = compact(body)
	tag := r.tag
	if tag == "" {
		sum := sha256.Sum256(body)
		tag = hex.EncodeToString(sum[:10])
	}
	v := &r.variants[encIdentity]
	v.ok, v.body = true, body
	v.etag = []string{`"` + tag + `"`}
	v.length = []string{strconv.Itoa(len(body))}
}

// hash returns the resource's content hash (the identity ETag without
// quotes): of the identity bytes, or of the stored gzip bytes.
func (r *resource) hash() string {
	if r.tag != "" {
		return r.tag
	}
	t := r.identity(nil).etag[0]
	return t[1 : len(t)-1]
}

// identity returns the identity variant, making it first for a resource
// built on first use.
func (r *resource) identity(work *sync.Mutex) *variant {
	v := &r.variants[encIdentity]
	v.once.Do(func() {
		exclusive(work, func() {
			r.setIdentity(r.make())
			collectAfter(len(v.body))
		})
	})
	return v
}

// pick returns the variant to send to a request whose Accept-Encoding
// values are accept. Only the encoding negotiateEncoding prefers is made;
// should it not be smaller than identity (it is then never offered), the
// next preferred one is tried.
func (r *resource) pick(accept []string, work *sync.Mutex) *variant {
	if !r.compressible || len(accept) == 0 {
		return r.identity(work)
	}
	avail := [numEncodings]bool{true, true, true}
	for {
		e := negotiateEncoding(accept, avail)
		if v := r.variant(e, work); v != nil {
			return v
		}
		avail[e] = false
	}
}

// variant returns the variant in encoding e, making it if need be, or nil
// when that encoding is not offered. The work it takes holds work (when
// not nil), so that a router compresses one thing at a time.
func (r *resource) variant(e contentEncoding, work *sync.Mutex) *variant {
	if e == encIdentity {
		return r.identity(work)
	}
	if !r.compressible {
		return nil
	}
	v := &r.variants[e]
	v.once.Do(func() {
		var (
			body []byte
			size int64
			err  error
		)
		exclusive(work, func() {
			if r.gz != nil {
				body, size, err = recompress(e, r.gz)
				collectAfter(int(size))
				return
			}
			id := r.identity(nil)
			body, err = compress(e, id.body)
			size = int64(len(id.body))
			collectAfter(int(size))
		})
		if err != nil || int64(len(body)) >= size {
			return // not offered; the error cannot happen with in-memory data
		}
		tag := `"` + r.hash() + `"`
		v.ok, v.body = true, body
		v.etag = []string{tag[:len(tag)-1] + "-" + e.String() + `"`}
		v.length = []string{strconv.Itoa(len(body))}
		v.encoding = []string{e.String()}
	})
	if !v.ok {
		return nil
	}
	return v
}

// exclusive runs f holding work, or without a lock when work is nil.
func exclusive(work *sync.Mutex, f func()) {
	if work != nil {
		work.Lock()
		defer work.Unlock()
	}
	f()
}

// collectAfterBytes is the size of a body from which making a variant of
// it (or the YAML document) is followed by a garbage collection.
const collectAfterBytes = 1 << 20

// collectAfter runs a garbage collection once a variant of a body of size
// bytes was made, when that body is large. Making one leaves garbage of
// about the body's size (the encoder's tables and buffers), and the
// runtime collects only once the heap has doubled since the last
// collection: a process holding a large document (whose JSON, YAML and
// their variants make most of its heap) would otherwise reach about twice
// the memory it keeps while its variants are made, one per encoding on
// the first requests. Each variant is made once, so this runs a few times
// in a router's life.
func collectAfter(size int) {
	if size >= collectAfterBytes {
		runtime.GC()
	}
}

// Encoder settings, chosen for the memory one compression takes (measured
// by bench/compression, figures in bench/README.md):
//   - gzip's default level 6: on GitHub's 13 MB description 5% larger than
//     level 9 and several times faster, with the same memory (about 3 MB);
//     on Swagger UI's bundle the sizes are equal.
//   - brotli quality 6 (quality 9's hash tables alone are 32 MB with a
//     window over 64 kB). A process compressing Swagger UI's bundle peaks
//     about 8 MB above one that only holds it with a 64 kB window, 12 MB
//     with 256 kB, 44 MB at quality 9 with 4 MB, for a result 4% larger
//     than with 256 kB and 9% larger than quality 9's. Bodies over 4 MB
//     (large documents) get a 256 kB window: there it takes no more memory
//     than 64 kB (12 MB on GitHub's description) and makes a result 23%
//     smaller.
const (
	gzipLevel        = gzip.DefaultCompression
	brotliQuality    = 6
	brotliSmallLGWin = 16      // log2 of the window for bodies up to brotliLargeBody
	brotliLargeLGWin = 18      // log2 of the window for larger bodies
	brotliLargeBody  = 4 << 20 // bytes
)

func compress(e contentEncoding, body []byte) ([]byte, error) {
	return compressFrom(e, bytes.NewReader(body), int64(len(body)))
}

// recompress makes the variant in encoding e of a gzip-compressed body,
// decompressing it as a stream (the decompressed bytes are never held
// whole), and returns it with the decompressed size.
func recompress(e contentEncoding, gz []byte) ([]byte, int64, error) {
	size, err := gzipSize(gz)
	if err != nil {
		return nil, 0, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, 0, fmt.Errorf("gunzip: %w", err)
	}
	out, err := compressFrom(e, zr, size)
	return out, size, err
}

// gunzip returns the decompressed bytes of gz, in a buffer of their exact
// size.
func gunzip(gz []byte) ([]byte, error) {
	size, err := gzipSize(gz)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	return out, nil
}

// gzipSize returns the decompressed size of a one-member gzip file, read
// from its trailer (ISIZE, RFC 1952), which holds it modulo 2^32; files
// the viewer serves are far smaller.
func gzipSize(gz []byte) (int64, error) {
	if len(gz) < 18 || gz[0] != 0x1f || gz[1] != 0x8b {
		return 0, fmt.Errorf("gunzip: not a gzip file")
	}
	return int64(binary.LittleEndian.Uint32(gz[len(gz)-4:])), nil
}

// compressFrom compresses the size bytes src yields into encoding e. It
// hands them to the encoder in 64 kB writes, never the whole body at once
// (as io.Copy would from a bytes.Reader): given a whole large body, the
// brotli encoder plans its blocks over all of it, which on GitHub's 13 MB
// description allocates 12.9 MB, against 6.6 MB in 64 kB writes for a
// result 0.05% larger (bench/README.md).
func compressFrom(e contentEncoding, src io.Reader, size int64) ([]byte, error) {
	var buf bytes.Buffer
	src = struct{ io.Reader }{src} // hides bytes.Reader's WriteTo from io.CopyBuffer
	chunk := make([]byte, 64<<10)
	switch e {
	case encGzip:
		w, err := gzip.NewWriterLevel(&buf, gzipLevel)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		if _, err := io.CopyBuffer(w, src, chunk); err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
	case encBrotli:
		// A window no larger than the body keeps small resources from
		// allocating brotli's full-size tables.
		maxWin := brotliSmallLGWin
		if size > brotliLargeBody {
			maxWin = brotliLargeLGWin
		}
		lgwin := 10
		for lgwin < maxWin && 1<<lgwin < size {
			lgwin++
		}
		w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotliQuality, LGWin: lgwin})
		if _, err := io.CopyBuffer(w, src, chunk); err != nil {
			return nil, fmt.Errorf("brotli: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("brotli: %w", err)
		}
	default:
		return nil, fmt.Errorf("unknown encoding %v", e)
	}
	return compact(buf.Bytes()), nil
}
