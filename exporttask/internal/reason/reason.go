// Package reason makes the text of an error fit for an API client: the
// errorReason of a failed task and the detail of a problem. Such text
// must name the problem and where it is in the client's terms, never the
// server's: [Clean] replaces absolute server paths by their last element
// and cuts the error chain where Go's own vocabulary starts (type names
// such as *fs.PathError or dem.NoDataValue, strconv and json messages,
// fmt's %! verbs), which the server's logs keep in full.
package reason

import (
	"path"
	"regexp"
	"strings"
)

// absPath matches an absolute path: a slash at the start of the text or
// after a space, a quote, a parenthesis, "=" or ":", up to the next space,
// quote, parenthesis, comma or semicolon.
var absPath = regexp.MustCompile(`(^|[\s"'(=:])(/[^\s"'(),;]*)`)

// goInternal matches the vocabulary of Go's runtime and standard library
// in an error's text.
var goInternal = regexp.MustCompile(`%!\w?|^(json|strconv|reflect|runtime)$|\bstrconv\.|\bfor type\b|\*?\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b|\bruntime error\b|\bgoroutine\b`)

// Clean returns s without absolute paths (each replaced by its last
// element) and without the part of its error chain, from the first
// ": "-separated element written in Go's vocabulary on. When the first
// element itself is, the Go words are dropped from it.
func Clean(s string) string {
	s = absPath.ReplaceAllStringFunc(s, func(m string) string {
		i := strings.IndexByte(m, '/')
		if isRequestPointer(m[i:]) {
			return m
		}
		p := strings.TrimRight(m[i:], "/.")
		base := path.Base(p)
		if base == "/" || base == "." {
			base = "the source"
		}
		return m[:i] + base
	})
	parts := strings.Split(s, ": ")
	for i, p := range parts {
		if !goInternal.MatchString(p) {
			continue
		}
		if i == 0 {
			return strings.Join(strings.Fields(goInternal.ReplaceAllString(p, "")), " ")
		}
		return strings.Join(parts[:i], ": ")
	}
	return s
}

// requestFields are the members of a create request: a JSON pointer into
// it (/ROI, /parameters/maxZoom, /webhook/0/url) starts with one of them.
var requestFields = []string{"ROI", "catalogRecordID", "domain", "artifactCRS", "description", "keywords",
	"parameters", "webhook"}

// isRequestPointer reports whether p, a match of absPath, is a JSON
// pointer into a create request rather than a server path: a problem's
// place, which the client needs, not something to hide.
func isRequestPointer(p string) bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	first = strings.TrimRight(first, ".:")
	for _, f := range requestFields {
		if first == f {
			return true
		}
	}
	return false
}
