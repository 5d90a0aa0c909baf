package main

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// bare is the ceiling: a map from path to bytes compressed in advance (the
// viewer's, by the parent process, so that the server's memory is only
// what it holds),
// picked by Accept-Encoding with a substring test, with no conditional
// requests and no method check. With extraHeaders it also sends the
// header fields the viewer adds (ETag, Cache-Control,
// X-Content-Type-Options, Accept-Ranges), still without acting on any, to
// tell the cost of sending them from the cost of the viewer's logic.
type bare struct {
	files        map[string]*bareFile
	extraHeaders bool
	// Header values.
	vary, noCache, nosniff, ranges []string
}

// bareFile holds one path's precomputed bytes and header values.
type bareFile struct {
	contentType                 []string
	identity, gzip, br          []byte
	identityLen, gzipLen, brLen []string
	identityTag, gzipTag, brTag []string
	gzipEnc, brEnc              []string // Content-Encoding; nil where the viewer sends identity
}

func newBare(set *contentSet, extraHeaders bool) *bare {
	b := &bare{files: map[string]*bareFile{}, extraHeaders: extraHeaders,
		vary:    []string{"Accept-Encoding"},
		noCache: []string{"no-cache"}, nosniff: []string{"nosniff"}, ranges: []string{"bytes"}}
	for _, f := range set.Files {
		sum := sha256.Sum256(f.Body)
		tag := `"` + hex.EncodeToString(sum[:10])
		gz, gzEnc, gzTag := f.Gzip, []string{"gzip"}, tag+`-gzip"`
		if gz == nil { // the viewer sends identity: so does bare
			gz, gzEnc, gzTag = f.Body, nil, tag+`"`
		}
		br, brEnc, brTag := f.Br, []string{"br"}, tag+`-br"`
		if br == nil {
			br, brEnc, brTag = f.Body, nil, tag+`"`
		}
		b.files[f.Path] = &bareFile{
			gzipEnc: gzEnc, brEnc: brEnc,
			contentType: []string{f.ContentType},
			identity:    f.Body, gzip: gz, br: br,
			identityLen: []string{strconv.Itoa(len(f.Body))},
			gzipLen:     []string{strconv.Itoa(len(gz))},
			brLen:       []string{strconv.Itoa(len(br))},
			identityTag: []string{tag + `"`},
			gzipTag:     []string{gzTag},
			brTag:       []string{brTag},
		}
	}
	return b
}

func (b *bare) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f := b.files[r.URL.Path]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h["Content-Type"] = f.contentType
	h["Vary"] = b.vary
	body, length, tag := f.identity, f.identityLen, f.identityTag
	ae := r.Header.Get("Accept-Encoding")
	switch {
	case strings.Contains(ae, "br"):
		body, length, tag = f.br, f.brLen, f.brTag
		if f.brEnc != nil {
			h["Content-Encoding"] = f.brEnc
		}
	case strings.Contains(ae, "gzip"):
		body, length, tag = f.gzip, f.gzipLen, f.gzipTag
		if f.gzipEnc != nil {
			h["Content-Encoding"] = f.gzipEnc
		}
	}
	h["Content-Length"] = length
	if b.extraHeaders {
		h["Etag"] = tag
		h["Cache-Control"] = b.noCache
		h["X-Content-Type-Options"] = b.nosniff
		h["Accept-Ranges"] = b.ranges
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
