package server

import (
	"net/http"
	"strings"
	"time"
)

// condition is the outcome of a download's conditional headers.
type condition int

const (
	condProceed     condition = iota // serve the file
	condFailed                       // 412 Precondition Failed
	condNotModified                  // 304 Not Modified
)

// checkConditions evaluates the conditional headers of a GET or HEAD in the
// order of RFC 9110 §13.2.2: If-Match, else If-Unmodified-Since (412 when
// false); then If-None-Match, else If-Modified-Since (304 when false).
// etag is the file's quoted strong ETag ("" when it has none), mod its
// modification time (zero when unknown: date conditions are then
// ignored).
func checkConditions(r *http.Request, etag string, mod time.Time) condition {
	if im := r.Header.Get("If-Match"); im != "" {
		if !etagListMatches(im, etag, true) {
			return condFailed
		}
	} else if ius := r.Header.Get("If-Unmodified-Since"); ius != "" && !mod.IsZero() {
		if t, err := http.ParseTime(ius); err == nil && mod.Truncate(time.Second).After(t) {
			return condFailed
		}
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if etagListMatches(inm, etag, false) {
			return condNotModified
		}
	} else if ims := r.Header.Get("If-Modified-Since"); ims != "" && !mod.IsZero() {
		if t, err := http.ParseTime(ims); err == nil && !mod.Truncate(time.Second).After(t) {
			return condNotModified
		}
	}
	return condProceed
}

// rangeApplies reports whether a Range header is to be honoured given
// If-Range (RFC 9110 §13.1.5): always without one; with an entity tag,
// when it is the file's strong ETag; with a date, when the file was last
// modified exactly then.
func rangeApplies(r *http.Request, etag string, mod time.Time) bool {
	ir := strings.TrimSpace(r.Header.Get("If-Range"))
	if ir == "" {
		return true
	}
	if strings.HasPrefix(ir, `"`) || strings.HasPrefix(ir, "W/") {
		tag, rest, ok := nextETag(ir)
		return ok && strings.TrimSpace(rest) == "" && etag != "" && !tag.weak && tag.opaque == etag
	}
	t, err := http.ParseTime(ir)
	return err == nil && !mod.IsZero() && mod.Truncate(time.Second).Equal(t)
}

// entityTag is one entity tag of a header: its quoted opaque value and
// whether it is weak (W/).
type entityTag struct {
	opaque string
	weak   bool
}

// etagListMatches reports whether a comma-separated list of entity tags
// (or "*") holds the file's etag, compared strongly (If-Match) or weakly
// (If-None-Match). A file without an ETag matches "*" only. A malformed
// list matches nothing from the malformed member on.
func etagListMatches(list, etag string, strong bool) bool {
	if strings.TrimSpace(list) == "*" {
		return true
	}
	if etag == "" {
		return false
	}
	rest := list
	for {
		rest = strings.TrimLeft(rest, " \t,")
		if rest == "" {
			return false
		}
		tag, next, ok := nextETag(rest)
		if !ok {
			return false
		}
		if tag.opaque == etag && (!strong || !tag.weak) {
			return true
		}
		rest = next
	}
}

// nextETag reads the entity tag at the start of s (W/"x" or "x") and
// returns it with what follows it.
func nextETag(s string) (entityTag, string, bool) {
	var tag entityTag
	if strings.HasPrefix(s, "W/") {
		tag.weak = true
		s = s[2:]
	}
	if len(s) < 2 || s[0] != '"' {
		return entityTag{}, "", false
	}
	end := strings.IndexByte(s[1:], '"')
	if end < 0 {
		return entityTag{}, "", false
	}
	tag.opaque = s[:end+2]
	return tag, s[end+2:], true
}
