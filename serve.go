package viewer

import (
	"bytes"
	"net/http"
	"sync"
	"time"
)

// serve answers a GET or HEAD request for r. Every header value was made at
// Setup; a plain request takes a fast path that allocates nothing of its
// own, and a conditional or Range request goes through http.ServeContent,
// which answers If-None-Match with 304 (using the ETag set here), Range
// with 206 (and adds Accept-Ranges), and If-Match / If-Unmodified-Since with
// 412. The fast path does not advertise Accept-Ranges: it is advisory, and
// one header less is measurably faster for small documents.
//
// A variant not made yet is made now, holding work (see resource.pick).
func (r *resource) serve(w http.ResponseWriter, req *http.Request, work *sync.Mutex) {
	v := r.pick(req.Header["Accept-Encoding"], work)

	h := w.Header()
	for _, f := range r.header {
		h[f.key] = f.values
	}
	h["Content-Type"] = r.contentType
	h["Etag"] = v.etag
	if r.version == "" || req.URL.RawQuery == r.version {
		h["Cache-Control"] = r.cacheControl
	} else {
		h["Cache-Control"] = r.staleControl
	}
	if v.encoding != nil {
		h["Content-Encoding"] = v.encoding
	}

	if !conditional(req) {
		h["Content-Length"] = v.length
		w.WriteHeader(http.StatusOK)
		if req.Method != http.MethodHead {
			_, _ = w.Write(v.body) // a write error means the client went away
		}
		return
	}
	http.ServeContent(w, req, "", time.Time{}, bytes.NewReader(v.body))
}

// conditional reports whether a request has headers that ServeContent must
// evaluate.
func conditional(req *http.Request) bool {
	h := req.Header
	return h["If-None-Match"] != nil || h["If-Match"] != nil || h["If-Modified-Since"] != nil ||
		h["If-Unmodified-Since"] != nil || h["Range"] != nil || h["If-Range"] != nil
}
