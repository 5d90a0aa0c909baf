package main

import (
	"net/http"
	"strconv"
	"strings"
)

// bare is the ceiling: a map from path to bytes compressed in advance,
// picked by Accept-Encoding with a substring test, with no conditional
// requests, no ETag, no Range and no method check.
type bare struct {
	files                map[string]*bareFile
	gzipEnc, brEnc, vary []string // header values
}

// bareFile holds one path's precomputed bytes and header values.
type bareFile struct {
	contentType                 []string
	identity, gzip, br          []byte
	identityLen, gzipLen, brLen []string
}

func newBare(set *contentSet) *bare {
	b := &bare{files: map[string]*bareFile{},
		gzipEnc: []string{"gzip"}, brEnc: []string{"br"}, vary: []string{"Accept-Encoding"}}
	for _, f := range set.Files {
		gz, br := gzipBytes(f.Body), brotliBytes(f.Body)
		b.files[f.Path] = &bareFile{
			contentType: []string{f.ContentType},
			identity:    f.Body, gzip: gz, br: br,
			identityLen: []string{strconv.Itoa(len(f.Body))},
			gzipLen:     []string{strconv.Itoa(len(gz))},
			brLen:       []string{strconv.Itoa(len(br))},
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
	body, length := f.identity, f.identityLen
	ae := r.Header.Get("Accept-Encoding")
	switch {
	case strings.Contains(ae, "br"):
		body, length = f.br, f.brLen
		h["Content-Encoding"] = b.brEnc
	case strings.Contains(ae, "gzip"):
		body, length = f.gzip, f.gzipLen
		h["Content-Encoding"] = b.gzipEnc
	}
	h["Content-Length"] = length
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
