package viewer

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"unicode"
)

// checkPath checks a UIPath or RawPath: absolute, clean, and free of
// characters that would make it ambiguous in a URL.
func checkPath(name, p string) error {
	if p == "" || p[0] != '/' {
		return configErrorf("%s %q must start with \"/\"", name, p)
	}
	if strings.ContainsAny(p, "\\?#%") || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return configErrorf("%s %q must not contain a backslash, ?, #, %% or control characters", name, p)
	}
	trimmed := p
	if len(p) > 1 {
		trimmed = strings.TrimSuffix(p, "/")
	}
	if path.Clean(trimmed) != trimmed {
		return configErrorf("%s %q must be a clean path (no //, . or .. segments)", name, p)
	}
	return nil
}

// rawStem returns the base of the raw endpoints for RawPath p: p itself, or
// p without its extension when it ends with .json, .yaml or .yml, so that
// "/openapi.json" serves /openapi.json, /openapi.yaml and /openapi.yml (and
// not /openapi.json.json).
func rawStem(p string) string {
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if stem, ok := strings.CutSuffix(p, ext); ok {
			return stem
		}
	}
	return p
}

// reservedUIKeys are the SwaggerUIBundle settings the viewer sets itself:
// where the documents come from (so the page cannot be pointed at another
// document, e.g. with ?url=) and how the UI is assembled.
func reservedUIKeys() []string {
	return []string{"url", "urls", "configUrl", "queryConfigEnabled", "dom_id", "domNode", "spec",
		"layout", "presets", "plugins"}
}

func checkUIConfig(cfg Config) error {
	switch cfg.DocExpansion {
	case "", "list", "full", "none":
	default:
		return configErrorf("DocExpansion %q must be \"list\", \"full\" or \"none\"", cfg.DocExpansion)
	}
	switch cfg.Theme {
	case "", "auto", "light", "dark":
	default:
		return configErrorf("Theme %q must be \"auto\", \"light\" or \"dark\"", cfg.Theme)
	}
	for _, k := range reservedUIKeys() {
		if _, ok := cfg.SwaggerUIConfig[k]; ok {
			return configErrorf("SwaggerUIConfig[%q] is set by the viewer and cannot be overridden", k)
		}
	}
	if cfg.OAuth2 != nil && cfg.OAuth2.ClientID == "" {
		return configErrorf("OAuth2.ClientID is required when OAuth2 is set")
	}
	for i, js := range cfg.CustomJS {
		if err := checkCustomJS(fmt.Sprintf("CustomJS[%d]", i), js); err != nil {
			return err
		}
	}
	if err := checkFavicon(cfg.Favicon); err != nil {
		return err
	}
	if len(cfg.ConnectSrc) > 0 && cfg.ContentSecurityPolicy != "" {
		return configErrorf("ConnectSrc has no effect when ContentSecurityPolicy replaces the policy: write its sources into ContentSecurityPolicy's connect-src")
	}
	for i, src := range cfg.ConnectSrc {
		if err := checkSource(fmt.Sprintf("ConnectSrc[%d]", i), src); err != nil {
			return err
		}
	}
	if strings.ContainsAny(cfg.ContentSecurityPolicy, "\r\n") {
		return configErrorf("ContentSecurityPolicy must be on one line")
	}
	if strings.ContainsAny(cfg.YAMLContentType, "\r\n") {
		return configErrorf("YAMLContentType must be on one line")
	}
	return nil
}

// isURLRef reports whether a CustomJS entry is a URL rather than source:
// it starts with http://, https://, // (scheme-relative), /, ./ or ../ and
// holds no white space.
func isURLRef(s string) bool {
	for _, p := range []string{"http://", "https://", "/", "./", "../"} {
		if strings.HasPrefix(s, p) {
			return !strings.ContainsFunc(s, unicode.IsSpace)
		}
	}
	return false
}

// checkCustomJS checks a CustomJS entry. A URL (see isURLRef) must parse
// and hold nothing that could end the attribute it is written into. Source
// must look like a program: an entry without white space and without any
// of ( = ; { is refused, since it is almost surely a file name or a URL
// with another scheme ("custom.js", "js/app.js", "data:..."), which would
// otherwise be served as script source.
func checkCustomJS(field, js string) error {
	if strings.TrimSpace(js) == "" {
		return configErrorf("%s is empty", field)
	}
	if isURLRef(js) {
		if _, err := url.Parse(js); err != nil || strings.ContainsAny(js, "\"'<>`\\") {
			return configErrorf("%s %q is not a valid URL", field, js)
		}
		return nil
	}
	if !strings.ContainsFunc(js, unicode.IsSpace) && !strings.ContainsAny(js, "(=;{") {
		return configErrorf("%s %q is neither a URL nor JavaScript source: write %q for a file next to the page, "+
			"%q for a path on this host, or a full https:// URL", field, js, "./"+strings.TrimPrefix(js, "./"), "/"+strings.TrimLeft(js, "./"))
	}
	return nil
}

// checkFavicon checks Config.Favicon: an http(s) URL, a scheme-relative
// URL, a path or a relative URL, or a data:image/ URL.
func checkFavicon(icon string) error {
	if icon == "" {
		return nil
	}
	if strings.ContainsAny(icon, "\"'<>`\\") || strings.ContainsFunc(icon, unicode.IsSpace) {
		return configErrorf("Favicon %q is not a valid URL (white space, quotes, < > and backslashes must be percent-encoded)", icon)
	}
	u, err := url.Parse(icon)
	if err != nil {
		return configErrorf("Favicon %q is not a valid URL: %v", icon, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "", "http", "https":
		return nil
	case "data":
		mediaType, _, _ := strings.Cut(u.Opaque, ",")
		mediaType, _, _ = strings.Cut(mediaType, ";")
		if strings.HasPrefix(strings.ToLower(mediaType), "image/") && strings.Contains(u.Opaque, ",") {
			return nil
		}
	}
	return configErrorf("Favicon %q must be an http(s) URL, a path, or an image as a data: URL such as \"data:image/png;base64,...\"", icon)
}

// slug turns a spec name into a URL segment: lower-case letters, digits and
// dashes.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// relativeURL returns the URL of the absolute path target relative to the
// directory dir (which ends with "/"), so that it resolves right whatever
// prefix the application is mounted under.
func relativeURL(dir, target string) string {
	from := strings.Split(strings.Trim(dir, "/"), "/")
	if dir == "/" {
		from = nil
	}
	to := strings.Split(strings.TrimPrefix(target, "/"), "/")
	common := 0
	for common < len(from) && common < len(to)-1 && from[common] == to[common] {
		common++
	}
	up := len(from) - common
	rest := strings.Join(to[common:], "/")
	if up == 0 {
		return "./" + rest
	}
	return strings.Repeat("../", up) + rest
}
