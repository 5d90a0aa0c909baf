package viewer

import (
	"regexp"
	"strings"
)

// This file turns URLs into Content-Security-Policy source expressions
// (CSP Level 3, section 2.3.1): a URL of the page's connections, scripts or
// icon becomes the smallest source that allows it.

// maxServerExpansions bounds the URLs one server template expands to; a
// template with more combinations of enum values is treated as if every
// variable were free.
const maxServerExpansions = 64

// freeMark stands for the value of a free server variable in a URL
// pattern. A URL from a document that holds it (JSON can spell it \u0000)
// is ignored, so it cannot widen the policy.
const freeMark = "\x00"

// urlSources returns the source expressions that allow requests to raw, a
// URL in which freeMark may stand for any text:
//   - an absolute http(s) URL gives its origin, "https://api.example.com:8443";
//   - a scheme-relative URL ("//api.example.com/v1") gives its host and
//     port without a scheme, which CSP matches against the page's scheme;
//   - a relative URL gives nothing: it is on the page's origin ('self');
//   - freeMark in the port gives the port "*"; freeMark in the host gives
//     "*." and the labels after the last one it touches
//     ("https://*.example.com"), or the whole scheme ("https:") when no
//     such label is left (an IP address, or a variable in the last label);
//   - freeMark in the scheme, or a URL that starts with it, gives "http:"
//     and "https:".
//
// Anything else (another scheme, a host CSP cannot name such as an IPv6
// literal or a non-ASCII name) gives nothing.
func urlSources(raw string) []string {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, freeMark) {
		return []string{"http:", "https:"}
	}
	var scheme, rest string
	if i := strings.Index(raw, "://"); i > 0 && !strings.ContainsAny(raw[:i], "/?#") {
		scheme, rest = strings.ToLower(raw[:i]), raw[i+3:]
		if strings.Contains(scheme, freeMark) {
			return []string{"http:", "https:"}
		}
		if scheme != "http" && scheme != "https" {
			return nil
		}
	} else if strings.HasPrefix(raw, "//") {
		rest = raw[2:]
	} else {
		return nil
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	host, port := authority, ""
	if i := strings.LastIndexByte(authority, ':'); i >= 0 {
		host, port = authority[:i], authority[i+1:]
	}
	host = strings.ToLower(host)
	if strings.Contains(port, freeMark) {
		port = "*"
	}
	if port != "" && port != "*" && !allDigits(port) {
		return nil
	}
	if i := strings.LastIndex(host, freeMark); i >= 0 {
		dot := strings.IndexByte(host[i:], '.')
		if dot < 0 || !validHost(host[i+dot+1:]) {
			if scheme == "" {
				return []string{"http:", "https:"}
			}
			return []string{scheme + ":"}
		}
		host = "*." + host[i+dot+1:]
	} else if !validHost(host) {
		return nil
	}
	src := host
	if port != "" {
		src += ":" + port
	}
	if scheme != "" {
		src = scheme + "://" + src
	}
	return []string{src}
}

// validHost reports whether h is a host name CSP can name: dot-separated
// labels of ASCII letters, digits and dashes (an IPv4 address is one).
func validHost(h string) bool {
	if h == "" {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" {
			return false
		}
		for _, c := range []byte(label) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// serverSources returns the sources that allow "Try it out" to call the
// server s. Each {variable} takes, in turn, every value of its enum and its
// default; a variable without an enum (or one the server does not declare)
// is free, since Swagger UI lets the user type any value, and adds the
// wildcard source urlSources makes for it. Up to maxServerExpansions
// combinations are listed; beyond, every variable counts as free.
func serverSources(s serverURL) []string {
	if strings.Contains(s.URL, freeMark) {
		return nil
	}
	names := templateVariables(s.URL)
	if len(names) == 0 {
		return urlSources(s.URL)
	}
	values := make([][]string, len(names))
	combos := 1
	for i, name := range names {
		v, declared := s.Variables[name]
		if !declared || len(v.Enum) == 0 {
			if declared && v.Default != "" {
				values[i] = []string{v.Default}
			}
			values[i] = append(values[i], freeMark)
		} else {
			values[i] = dedupe(append(append([]string(nil), v.Enum...), v.Default))
		}
		combos *= len(values[i])
		if combos > maxServerExpansions {
			return urlSources(expandTemplate(s.URL, func(string) string { return freeMark }))
		}
	}
	var out []string
	pick := make(map[string]string, len(names))
	var walk func(i int)
	walk = func(i int) {
		if i == len(names) {
			out = append(out, urlSources(expandTemplate(s.URL, func(n string) string { return pick[n] }))...)
			return
		}
		for _, v := range values[i] {
			if strings.ContainsAny(v, freeMark+"{}") && v != freeMark {
				continue // a value that would read as another variable or as the mark
			}
			pick[names[i]] = v
			walk(i + 1)
		}
	}
	walk(0)
	return out
}

// templateVariables returns the names of the {variables} of a server URL,
// each once, in order.
func templateVariables(u string) []string {
	var names []string
	for {
		open := strings.IndexByte(u, '{')
		if open < 0 {
			return dedupe(names)
		}
		end := strings.IndexByte(u[open:], '}')
		if end < 0 {
			return dedupe(names)
		}
		names = append(names, u[open+1:open+end])
		u = u[open+end+1:]
	}
}

// expandTemplate replaces each {variable} of a server URL with value(name).
func expandTemplate(u string, value func(string) string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(u, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(u[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(u[:open])
		b.WriteString(value(u[open+1 : open+end]))
		u = u[open+end+1:]
	}
	b.WriteString(u)
	return b.String()
}

// connectSources returns the page's connect-src additions for the links of
// its documents: every server, and every URL Swagger UI fetches to
// authorize (a relative token URL resolves against a server, which is
// already allowed).
func connectSources(links []documentLinks) []string {
	var out []string
	for _, l := range links {
		for _, s := range l.servers {
			out = append(out, serverSources(s)...)
		}
		for _, u := range l.fetched {
			if strings.Contains(u, freeMark) {
				continue
			}
			out = append(out, urlSources(u)...)
		}
	}
	return dedupe(out)
}

// checkSource checks an entry of Config.ConnectSrc: a scheme source
// ("https:") or a host source ("https://api.example.com",
// "https://*.example.com:*", "api.example.com/v1/").
func checkSource(field, s string) error {
	hostSource := regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*://)?(\*|(\*\.)?[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)*)(:(\*|[0-9]+))?(/[^\s;,'"?#]*)?$`)
	schemeSource := regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:$`)
	if schemeSource.MatchString(s) || hostSource.MatchString(s) {
		return nil
	}
	return configErrorf("%s %q is not a Content-Security-Policy source: write an origin such as \"https://api.example.com\" "+
		"(\"https://*.example.com\" for its subdomains, \"http://127.0.0.1:*\" for any port) or a scheme such as \"https:\"", field, s)
}
