package viewer

import (
	"bytes"
	"net/http"
	"strings"
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
	cacheControl := r.cacheControl
	if r.version != "" && req.URL.RawQuery != r.version {
		cacheControl = r.staleControl
	}
	if len(h) == 0 {
		// Nothing set by an outer middleware (the common case): no header
		// to keep, so no lookups.
		for _, f := range r.header {
			h[f.key] = f.values
		}
		h["Cache-Control"] = cacheControl
	} else {
		for _, f := range r.header {
			applyHeader(h, f.key, f.values)
		}
		applyHeader(h, "Cache-Control", cacheControl)
	}
	h["Content-Type"] = r.contentType
	h["Etag"] = v.etag
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

// applyHeader sets one of the viewer's headers without undoing what an
// outer middleware set before it:
//   - Vary: Accept-Encoding is added to the Vary already there
//     ("Origin" becomes "Origin, Accept-Encoding"), unless it is listed
//     already or the Vary is "*";
//   - Content-Security-Policy is always the viewer's: the page does not
//     work under another policy (Config.ContentSecurityPolicy replaces it);
//   - every other header it applies (Cache-Control, X-Content-Type-Options,
//     Referrer-Policy) is set only when absent.
//
// The headers that describe the body (Content-Type, Content-Length,
// Content-Encoding, ETag) are always the viewer's, set by serve.
func applyHeader(h http.Header, key string, values []string) {
	switch key {
	case "Vary":
		h["Vary"] = varyWith(h["Vary"], values)
	case "Content-Security-Policy":
		h[key] = values
	default:
		if _, set := h[key]; !set {
			h[key] = values
		}
	}
}

// varyWith returns the Vary field values old with ours added.
func varyWith(old, ours []string) []string {
	if len(old) == 0 {
		return ours
	}
	have := func(name string) bool {
		for _, line := range old {
			for _, tok := range strings.Split(line, ",") {
				if tok = strings.TrimSpace(tok); tok == "*" || strings.EqualFold(tok, name) {
					return true
				}
			}
		}
		return false
	}
	var add []string
	for _, v := range ours {
		if !have(v) {
			add = append(add, v)
		}
	}
	if len(add) == 0 {
		return old
	}
	return []string{strings.Join(append(append([]string(nil), old...), add...), ", ")}
}

// conditional reports whether a request has headers that ServeContent must
// evaluate.
func conditional(req *http.Request) bool {
	h := req.Header
	return h["If-None-Match"] != nil || h["If-Match"] != nil || h["If-Modified-Since"] != nil ||
		h["If-Unmodified-Since"] != nil || h["Range"] != nil || h["If-Range"] != nil
}
