package viewer

import "strings"

// File is a FilePathOrSpec value that is always a file path (read from
// Config.FS when it is set), whatever its text: viewer.File("openapi.yaml").
type File string

// Bytes is a FilePathOrSpec value that is always a YAML or JSON document:
// viewer.Bytes(doc). A plain []byte means the same.
type Bytes []byte

// looksLikeDocument reports whether a string given as a file path is more
// likely a document: it spans lines, or starts like JSON or like an OpenAPI
// document in YAML. No sensible file name does.
func looksLikeDocument(s string) bool {
	if strings.ContainsAny(s, "\n\r") {
		return true
	}
	t := strings.TrimLeft(strings.TrimPrefix(s, UTF8BOM), " \t")
	return looksLikeJSON([]byte(t)) || hasAnyPrefix(t, "openapi:", "swagger:", `"openapi"`, `'openapi'`, "---")
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
