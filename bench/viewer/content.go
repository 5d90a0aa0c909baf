package main

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer"
)

// file is one response of the viewer's page load: its identity bytes and
// the viewer's gzip and brotli bytes (nil when the viewer does not compress
// it), which the bare server then only holds.
type file struct {
	Path        string // URL path, without the query
	ContentType string
	Body        []byte
	Gzip, Br    []byte
}

// contentSet is what every server serves: the viewer's page, the files it
// loads and the document as JSON and YAML, taken from the viewer once, so that the
// bare handler and http-swagger serve the very same bytes.
type contentSet struct {
	Files    []file
	SpecPath string // path of the document's JSON among Files
	YAMLPath string // path of the document's YAML among Files
	SpecSize int    // size of the source file
}

// newContentSet loads the document with the viewer (mounted at /docs) and
// collects the identity bytes of the page and of everything it loads.
func newContentSet(spec string) (*contentSet, error) {
	src, err := os.ReadFile(spec)
	if err != nil {
		return nil, fmt.Errorf("reading the document: %w", err)
	}
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: spec, UIPath: "/docs"})
	if err != nil {
		return nil, err
	}
	get := func(p string) (file, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusOK {
			return file{}, fmt.Errorf("the viewer answers %s with %d", p, rec.Code)
		}
		u, err := url.Parse(p)
		if err != nil {
			return file{}, fmt.Errorf("parsing %s: %w", p, err)
		}
		return file{Path: u.Path, ContentType: rec.Header().Get("Content-Type"), Body: rec.Body.Bytes()}, nil
	}
	page, err := get("/docs/")
	if err != nil {
		return nil, err
	}
	set := &contentSet{Files: []file{page}, SpecSize: len(src)}
	base, _ := url.Parse("http://bench/docs/")
	var scripts [][]byte
	for _, ref := range pageRefs(page.Body) {
		f, err := get(mustResolve(base, ref).RequestURI())
		if err != nil {
			return nil, err
		}
		set.Files = append(set.Files, f)
		if isScript(ref) {
			scripts = append(scripts, f.Body)
		}
	}
	specs := specRefs(page.Body, scripts)
	if len(specs) != 1 {
		return nil, fmt.Errorf("the viewer's page names %d documents, want 1", len(specs))
	}
	f, err := get(mustResolve(base, specs[0]).RequestURI())
	if err != nil {
		return nil, err
	}
	set.Files = append(set.Files, f)
	set.SpecPath = f.Path
	set.YAMLPath = strings.TrimSuffix(f.Path, ".json") + ".yaml"
	y, err := get(set.YAMLPath)
	if err != nil {
		return nil, err
	}
	set.Files = append(set.Files, y)
	// The compressed bytes are the viewer's own, so that every server
	// sends the same bytes; nil where the viewer sends identity (icons).
	for i := range set.Files {
		f := &set.Files[i]
		for enc, dst := range map[string]*[]byte{"gzip": &f.Gzip, "br": &f.Br} {
			req := httptest.NewRequest(http.MethodGet, f.Path, nil)
			req.Header.Set("Accept-Encoding", enc)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				return nil, fmt.Errorf("the viewer answers %s (%s) with %d", f.Path, enc, rec.Code)
			}
			if rec.Header().Get("Content-Encoding") == enc {
				*dst = rec.Body.Bytes()
			}
		}
	}
	return set, nil
}

// spec returns the document's JSON.
func (s *contentSet) spec() []byte {
	for _, f := range s.Files {
		if f.Path == s.SpecPath {
			return f.Body
		}
	}
	return nil
}

// writeFile writes the set to a temporary directory for the child
// processes: each body in a file of its own and the rest in manifest.gob,
// so that a child reads every body into a slice of its exact size and
// never holds an encoded copy of the set (gob buffers a whole message). It
// returns the directory and a function removing it.
func (s *contentSet) writeFile() (string, func(), error) {
	dir, err := os.MkdirTemp("", "bench-viewer-*")
	if err != nil {
		return "", nil, fmt.Errorf("creating the content directory: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	manifest := *s
	manifest.Files = make([]file, len(s.Files))
	for i, f := range s.Files {
		manifest.Files[i] = file{Path: f.Path, ContentType: f.ContentType}
		for ext, b := range map[string][]byte{"id": f.Body, "gz": f.Gzip, "br": f.Br} {
			if err := os.WriteFile(bodyFile(dir, i, ext), b, 0o600); err != nil {
				cleanup()
				return "", nil, fmt.Errorf("writing the content directory: %w", err)
			}
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&manifest); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("encoding the manifest: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.gob"), buf.Bytes(), 0o600); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("writing the manifest: %w", err)
	}
	return dir, cleanup, nil
}

func bodyFile(dir string, i int, ext string) string {
	return filepath.Join(dir, strconv.Itoa(i)+"."+ext)
}

// readContentSet reads a set written by writeFile.
func readContentSet(dir string) (*contentSet, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.gob"))
	if err != nil {
		return nil, fmt.Errorf("reading the manifest: %w", err)
	}
	var s contentSet
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&s); err != nil {
		return nil, fmt.Errorf("decoding the manifest: %w", err)
	}
	for i := range s.Files {
		f := &s.Files[i]
		for ext, dst := range map[string]*[]byte{"id": &f.Body, "gz": &f.Gzip, "br": &f.Br} {
			if *dst, err = os.ReadFile(bodyFile(dir, i, ext)); err != nil {
				return nil, fmt.Errorf("reading the content directory: %w", err)
			}
		}
	}
	return &s, nil
}

// pageRefs lists the URLs of a page's <script src> and <link href>
// elements (stylesheets and icons), in page order.
func pageRefs(page []byte) []string {
	refPattern := regexp.MustCompile(`<(?:script|link)\b[^>]*\s(?:src|href)="([^"]+)"`)
	var out []string
	for _, m := range refPattern.FindAllSubmatch(page, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// specRefs finds the document URLs Swagger UI is started with: a url (or
// urls[].url) setting in the page's inline scripts or in a small script it
// loads (the viewer's initializer). Swagger UI's bundle is skipped: its
// defaults contain url settings of their own.
func specRefs(page []byte, scripts [][]byte) []string {
	inlinePattern := regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	specURLPattern := regexp.MustCompile(`\burl"?\s*:\s*"([^"]+)"`)
	var srcs [][]byte
	for _, m := range inlinePattern.FindAllSubmatch(page, -1) {
		srcs = append(srcs, m[1])
	}
	for _, s := range scripts {
		if len(s) < 64<<10 {
			srcs = append(srcs, s)
		}
	}
	var out []string
	for _, s := range srcs {
		for _, m := range specURLPattern.FindAllSubmatch(s, -1) {
			// A JavaScript string literal: html/template writes "/" as
			// "\/" in scripts; JSON's escapes cover what appears here.
			var u string
			if err := json.Unmarshal([]byte(`"`+string(m[1])+`"`), &u); err != nil {
				u = string(m[1])
			}
			out = append(out, u)
		}
	}
	return out
}

func isScript(ref string) bool {
	u, err := url.Parse(ref)
	return err == nil && strings.HasSuffix(u.Path, ".js")
}

// mustResolve resolves a reference found in a page; an unparsable one
// resolves to the base itself, which the server then answers.
func mustResolve(base *url.URL, ref string) *url.URL {
	r, err := url.Parse(ref)
	if err != nil {
		return base
	}
	return base.ResolveReference(r)
}

// discard reads a body to its end, returning how many bytes it had.
func discard(r io.Reader) (int64, error) {
	return io.Copy(io.Discard, r)
}
