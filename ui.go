package viewer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/internal/specdoc"
)

// uiDist is the Swagger UI distribution a router serves: its files as
// resources, with the versions its bundle names.
type uiDist struct {
	version   specdoc.UIVersion // Swagger UI's, from the bundle's build info
	dompurify string            // the bundled DOMPurify's, "" when not found
	assets    assetSet
}

// parseUIVersion reads "5.35.0" (a pre-release or build suffix after the
// patch number is ignored).
func parseUIVersion(s string) (specdoc.UIVersion, bool) {
	var v specdoc.UIVersion
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return v, false
	}
	if i := strings.IndexAny(parts[2], "-+"); i >= 0 {
		parts[2] = parts[2][:i]
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" || p[0] == '+' {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

// distFile is one file of the distributions the page uses.
type distFile struct {
	name        string
	contentType string
	required    bool
}

// distFiles lists the only files of a Swagger UI distribution the viewer
// serves. The distribution's index.html and swagger-initializer.js are
// never served: they load the Petstore demo.
func distFiles() []distFile {
	return []distFile{
		{"swagger-ui-bundle.js", "text/javascript; charset=utf-8", true},
		{"swagger-ui-standalone-preset.js", "text/javascript; charset=utf-8", true},
		{"swagger-ui.css", "text/css; charset=utf-8", true},
		{"favicon-32x32.png", "image/png", false},
		{"favicon-16x16.png", "image/png", false},
	}
}

// loadUIDist reads a Swagger UI 5 distribution from fsys: each file as it
// is, or gzip-compressed with ".gz" added to its name. field names the
// source in errors ("SwaggerUI", or the embedded module's path).
func loadUIDist(fsys fs.FS, field string) (*uiDist, error) {
	d := &uiDist{assets: assetSet{}}
	for _, f := range distFiles() {
		data, gzipped, err := readDistFile(fsys, f.name)
		if errors.Is(err, fs.ErrNotExist) {
			if f.required {
				return nil, configErrorf("%s has no %s (nor %s.gz)%s", field, f.name, f.name, subdirHint(fsys, f.name))
			}
			continue
		}
		if err != nil {
			return nil, configErrorf("%s: reading %s: %v", field, f.name, err)
		}
		compressible := strings.HasPrefix(f.contentType, "text/")
		switch {
		case gzipped && compressible:
			d.assets[f.name] = newGzipAsset(f.name, f.contentType, data)
		case gzipped:
			if data, err = gunzip(data); err != nil {
				return nil, configErrorf("%s: %s.gz: %v", field, f.name, err)
			}
			d.assets[f.name] = newAsset(f.name, f.contentType, data, false)
		default:
			d.assets[f.name] = newAsset(f.name, f.contentType, data, compressible)
		}
		if f.name == "swagger-ui-bundle.js" {
			if err := d.readVersions(data, gzipped, field); err != nil {
				return nil, err
			}
		}
	}
	css, err := readOwnAsset("viewer.css")
	if err != nil {
		return nil, err
	}
	d.assets["viewer.css"] = newAsset("viewer.css", "text/css; charset=utf-8", css, true)

	script, err := oauth2Script(fsys, field)
	if err != nil {
		return nil, err
	}
	page, err := readOwnAsset("oauth2-redirect.html")
	if err != nil {
		return nil, err
	}
	d.assets["oauth2-redirect.html"] = newResource("oauth2-redirect.html", "text/html; charset=utf-8", page, true, http.Header{
		"Content-Security-Policy": {"default-src 'none'; script-src 'self'; frame-ancestors 'self'; base-uri 'none'"},
		"Referrer-Policy":         {"no-referrer"},
	})
	d.assets["oauth2-redirect.js"] = newResource("oauth2-redirect.js", "text/javascript; charset=utf-8", script, true, nil)
	return d, nil
}

// readVersions reads Swagger UI's and DOMPurify's versions from the bundle
// and refuses anything but Swagger UI 5.
func (d *uiDist) readVersions(data []byte, gzipped bool, field string) error {
	var r io.Reader = bytes.NewReader(data)
	if gzipped {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return configErrorf("%s: swagger-ui-bundle.js.gz: %v", field, err)
		}
		r = zr
	}
	ui, purify, err := bundleVersions(r)
	if err != nil {
		return configErrorf("%s: reading swagger-ui-bundle.js: %v", field, err)
	}
	if ui == "" {
		return configErrorf("%s: swagger-ui-bundle.js names no Swagger UI version (no PACKAGE_VERSION in its build info): is it the swagger-ui-bundle.js of a swagger-ui-dist package?", field)
	}
	v, ok := parseUIVersion(ui)
	if !ok {
		return configErrorf("%s: swagger-ui-bundle.js names the version %q: want major.minor.patch", field, ui)
	}
	if v[0] != 5 {
		return configErrorf("%s: swagger-ui-bundle.js is Swagger UI %s: the viewer needs Swagger UI 5 (swagger-ui-dist 5.x)", field, ui)
	}
	d.version, d.dompurify = v, purify
	return nil
}

// readDistFile reads name from fsys, or name+".gz" (then gzipped is true);
// the error matches fs.ErrNotExist when neither exists.
func readDistFile(fsys fs.FS, name string) (data []byte, gzipped bool, err error) {
	data, err = fs.ReadFile(fsys, name)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return data, false, err
	}
	data, err = fs.ReadFile(fsys, name+".gz")
	if err != nil {
		return nil, false, err
	}
	if _, err := gzipSize(data); err != nil {
		return nil, false, fmt.Errorf("%s.gz: %w", name, err)
	}
	return data, true, nil
}

// subdirHint suggests fs.Sub when name is in a directory of fsys rather
// than at its root (as with //go:embed dist, which keeps "dist/").
func subdirHint(fsys fs.FS, name string) string {
	for _, pattern := range []string{"*/" + name, "*/*/" + name, "*/" + name + ".gz", "*/*/" + name + ".gz"} {
		if m, err := fs.Glob(fsys, pattern); err == nil && len(m) > 0 {
			return fmt.Sprintf(": it is at %s, so pass fs.Sub(fsys, %q)", m[0], path.Dir(m[0]))
		}
	}
	return ": give the files of a swagger-ui-dist package (its package/ directory) at the root of the fs.FS"
}

// oauth2Script returns the script of the OAuth2 redirect page: the
// distribution's oauth2-redirect.js, else the inline script of its
// oauth2-redirect.html (Swagger UI before 5.x moved it out), else the
// viewer's own (assets/oauth2-redirect.js).
func oauth2Script(fsys fs.FS, field string) ([]byte, error) {
	js, gzipped, err := readDistFile(fsys, "oauth2-redirect.js")
	if err == nil {
		if gzipped {
			if js, err = gunzip(js); err != nil {
				return nil, configErrorf("%s: oauth2-redirect.js.gz: %v", field, err)
			}
		}
		return js, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, configErrorf("%s: reading oauth2-redirect.js: %v", field, err)
	}
	page, gzipped, err := readDistFile(fsys, "oauth2-redirect.html")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, configErrorf("%s: reading oauth2-redirect.html: %v", field, err)
	}
	if err == nil && gzipped {
		if page, err = gunzip(page); err != nil {
			return nil, configErrorf("%s: oauth2-redirect.html.gz: %v", field, err)
		}
	}
	if script := inlineScript(page); script != nil {
		return script, nil
	}
	return readOwnAsset("oauth2-redirect.js")
}

// inlineScript returns the text of the first <script> element without a
// src attribute in page, or nil.
func inlineScript(page []byte) []byte {
	open := bytes.Index(page, []byte("<script>"))
	if open < 0 {
		return nil
	}
	rest := page[open+len("<script>"):]
	end := bytes.Index(rest, []byte("</script>"))
	if end < 0 || len(bytes.TrimSpace(rest[:end])) == 0 {
		return nil
	}
	return bytes.Clone(rest[:end])
}

// bundleVersions finds, in a Swagger UI bundle read from r, the version in
// its build info (PACKAGE_VERSION:"5.35.0") and the bundled DOMPurify's
// (DOMPurify.version="3.4.11"). It reads the bundle as a stream, in chunks,
// and stops once it has both; a version not found is "".
func bundleVersions(r io.Reader) (ui, purify string, err error) {
	const (
		chunk   = 64 << 10
		overlap = 96 // longer than a marker and its value
	)
	buf := make([]byte, 0, chunk+overlap)
	for {
		n, rerr := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if ui == "" {
			ui = valueAfter(buf, "PACKAGE_VERSION", ':')
		}
		if purify == "" {
			purify = valueAfter(buf, "DOMPurify.version", '=')
		}
		if ui != "" && purify != "" {
			return ui, purify, nil
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			return ui, purify, nil
		}
		if rerr != nil {
			return "", "", rerr
		}
		keep := min(overlap, len(buf))
		copy(buf, buf[len(buf)-keep:])
		buf = buf[:keep]
	}
}

// valueAfter finds key, then sep, then a quoted string, spaces allowed
// around sep, and returns the string; "" when there is none (or it is cut
// off by the end of b).
func valueAfter(b []byte, key string, sep byte) string {
	for from := 0; ; {
		i := bytes.Index(b[from:], []byte(key))
		if i < 0 {
			return ""
		}
		rest := b[from+i+len(key):]
		from += i + len(key)
		rest = bytes.TrimLeft(rest, " ")
		if len(rest) == 0 || rest[0] != sep {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " ")
		if len(rest) == 0 || (rest[0] != '"' && rest[0] != '\'') {
			continue
		}
		q := rest[0]
		end := bytes.IndexByte(rest[1:], q)
		if end < 0 || end > 40 {
			continue
		}
		return string(rest[1 : 1+end])
	}
}
