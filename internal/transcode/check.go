package transcode

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// field is one scalar of the document that Setup checks.
type field struct {
	present bool
	kind    string     // "string", "number", "boolean", "null", "mapping", "list"
	value   string     // the scalar's text, for strings, numbers and booleans
	line    int        // 1-based, 0 when unknown (JSON input)
	node    *yaml.Node // the field's node in a parsed YAML document, for a Locator
}

// Head is what Setup checks in a document, and what the page needs of
// it.
type Head struct {
	root             *yaml.Node // the parsed YAML document, for a Locator
	openapi, swagger field
	info             struct {
		present, isMapping bool
		line               int
		node               *yaml.Node
	}
	title, version field
}

// Title returns the document's info.title, as checked by Check.
func (h Head) Title() string { return h.title.value }

func errNotMapping(kind string) error {
	return fmt.Errorf("the document must be a mapping (an object) at the top level, not %s", Article(kind))
}

func Article(kind string) string {
	switch kind {
	case "empty":
		return "an empty document"
	case "null":
		return "null"
	}
	return "a " + kind
}

// Check applies Setup's rules to a document's head: an openapi (3.x) or
// swagger (2.0) string that Swagger UI of version ui renders, and an info
// mapping with a title and a version.
func (h Head) Check(source string, ui UIVersion) error {
	return h.CheckIn(source, ui, nil)
}

// A Locator says where to report a problem found at node n of a bundled
// document, whose nodes may come from other files through $refs: it
// returns e, or e rewritten to name the $ref and the file n was read from.
type Locator func(n *yaml.Node, e *Error) *Error

// CheckIn is Check for a document bundled from several files: locate,
// when not nil, rewrites where each problem is reported.
func (h Head) CheckIn(source string, ui UIVersion, locate Locator) error {
	var at *yaml.Node // the node of the problem being reported
	fail := func(line int, format string, args ...any) error {
		e := &Error{Source: source, Line: line, Err: fmt.Errorf(format, args...)}
		if locate != nil && at != nil {
			return locate(at, e)
		}
		return e
	}
	switch {
	case h.openapi.present:
		at = h.openapi.node
		if h.openapi.kind != "string" {
			return fail(h.openapi.line, "openapi must be a string such as \"3.1.0\", not %s (quote it in YAML)", Article(h.openapi.kind))
		}
		oas32 := ui.RendersOAS32()
		if !renderableOpenAPI(h.openapi.value, oas32) {
			if oas32 {
				return fail(h.openapi.line, "openapi is %q: Swagger UI %s renders OpenAPI 3.0.0 to 3.0.3, 3.1.x and 3.2.x (and Swagger \"2.0\")", h.openapi.value, ui)
			}
			msg := fmt.Sprintf("openapi is %q: the bundled Swagger UI renders OpenAPI 3.0.0 to 3.0.3 and 3.1.x (and Swagger \"2.0\")", h.openapi.value)
			if renderableOpenAPI(h.openapi.value, true) {
				msg += fmt.Sprintf("; OpenAPI 3.2 needs Swagger UI 5.32.0 or newer (this one is %s): see Config.SwaggerUI", ui)
			}
			return fail(h.openapi.line, "%s", msg)
		}
	case h.swagger.present:
		at = h.swagger.node
		if h.swagger.kind != "string" {
			return fail(h.swagger.line, "swagger must be the string \"2.0\", not %s (quote it in YAML)", Article(h.swagger.kind))
		}
		if h.swagger.value != "2.0" {
			return fail(h.swagger.line, "swagger is %q: want \"2.0\"", h.swagger.value)
		}
	default:
		at = h.root
		return fail(0, "missing the openapi (3.x) or swagger (2.0) field: is this an OpenAPI document?")
	}
	at = h.root
	if !h.info.present {
		return fail(0, "missing the info mapping (info.title and info.version are required)")
	}
	at = h.info.node
	if !h.info.isMapping {
		return fail(h.info.line, "info must be a mapping with title and version")
	}
	if !h.title.present || h.title.kind != "string" || strings.TrimSpace(h.title.value) == "" {
		if h.title.node != nil {
			at = h.title.node
		}
		return fail(lineOr(h.title, h.info.line), "info.title must be a non-empty string")
	}
	if !h.version.present || (h.version.kind != "string" && h.version.kind != "number") || h.version.value == "" {
		if h.version.node != nil {
			at = h.version.node
		}
		return fail(lineOr(h.version, h.info.line), "info.version must be a non-empty string")
	}
	return nil
}

// renderableOpenAPI reports whether Swagger UI renders an OpenAPI document
// of this version: it accepts the same strings as Swagger UI's own isOAS30,
// isOAS31 and (when oas32, from Swagger UI 5.32.0) isOAS32 tests (3.0.0 to
// 3.0.3, with an optional -rc0 to -rc2, 3.1.N and 3.2.N), and Swagger UI
// shows nothing for any other.
func renderableOpenAPI(v string, oas32 bool) bool {
	if rest, ok := strings.CutPrefix(v, "3.0."); ok {
		if len(rest) == 5 && rest[1:4] == "-rc" && rest[4] >= '0' && rest[4] <= '2' {
			rest = rest[:1]
		}
		return len(rest) == 1 && rest[0] >= '0' && rest[0] <= '3'
	}
	minor := "3.1."
	if oas32 && strings.HasPrefix(v, "3.2.") {
		minor = "3.2."
	}
	if rest, ok := strings.CutPrefix(v, minor); ok {
		if rest == "" || (rest[0] == '0' && rest != "0") {
			return false
		}
		for _, c := range rest {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	return false
}

func lineOr(f field, line int) int {
	if f.line > 0 {
		return f.line
	}
	return line
}
