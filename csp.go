package viewer

import "strings"

// policy is the page's default Content-Security-Policy: everything from
// the viewer itself ('self'), plus these additions.
type policy struct {
	script  []string // origins of CustomJS URLs
	style   []string // hashes of the inline <style> elements Swagger UI creates
	img     []string // the Favicon's origin, when https: and data: do not cover it
	connect []string // the documents' servers and OAuth2 URLs, and Config.ConnectSrc
}

// String writes the policy as a header value.
func (p policy) String() string {
	join := func(base string, extra []string) string {
		if len(extra) == 0 {
			return base
		}
		return base + " " + strings.Join(extra, " ")
	}
	return strings.Join([]string{
		"default-src 'none'",
		join("script-src 'self'", p.script),
		join("style-src 'self'", p.style),
		join("img-src 'self' data: https:", p.img),
		"font-src 'self' data:",
		join("connect-src 'self'", p.connect),
		"frame-ancestors 'self'",
		"base-uri 'none'",
		"form-action 'self'",
		"object-src 'none'",
	}, "; ")
}
