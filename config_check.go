package viewer

import (
	"net/url"
	"path"
	"strings"
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
	for _, k := range reservedUIKeys() {
		if _, ok := cfg.SwaggerUIConfig[k]; ok {
			return configErrorf("SwaggerUIConfig[%q] is set by the viewer and cannot be overridden", k)
		}
	}
	if cfg.OAuth2 != nil && cfg.OAuth2.ClientID == "" {
		return configErrorf("OAuth2.ClientID is required when OAuth2 is set")
	}
	for i, js := range cfg.CustomJS {
		if strings.TrimSpace(js) == "" {
			return configErrorf("CustomJS[%d] is empty", i)
		}
		if isURLRef(js) {
			if _, err := url.Parse(js); err != nil || strings.ContainsAny(js, " \n\"'<>") {
				return configErrorf("CustomJS[%d] %q is not a valid URL", i, js)
			}
		}
	}
	if cfg.Favicon != "" {
		if _, err := url.Parse(cfg.Favicon); err != nil || strings.ContainsAny(cfg.Favicon, " \n\"'<>") {
			return configErrorf("Favicon %q is not a valid URL", cfg.Favicon)
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

// isURLRef reports whether a CustomJS entry is a URL rather than source.
func isURLRef(s string) bool {
	for _, p := range []string{"http://", "https://", "/", "./", "../"} {
		if strings.HasPrefix(s, p) {
			return !strings.ContainsAny(s, "\n;(){}")
		}
	}
	return false
}

// absoluteOrigin returns the origin of an absolute http(s) URL, or "".
func absoluteOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
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
