// Package transcode converts OpenAPI documents between JSON and YAML for the
// viewer, keeping the author's key order and YAML 1.2's scalars, and checks
// what the viewer requires of a document's head.
//
// Start with [IndentJSON] (a JSON document, re-indented and checked for
// duplicate keys), [ParseYAML] and [NodeToJSON] (a YAML document, or a JSON
// one read as YAML, written as indented JSON), and [JSONToYAML] (the YAML
// the viewer serves). [Head] is what those read of the document's openapi,
// swagger and info fields; [Head.Check] applies the viewer's rules to it for
// the Swagger UI [UIVersion] that will render the document, and
// [Head.CheckIn] does the same for a document bundled from several files,
// with a [Locator] that names the $ref and file a problem came from.
// [ParseYAMLValue] parses a file of any kind of value (a part a $ref
// names). Every problem with a document is an [*Error] naming the document
// and, when known, the line.
//
// The package reads no files: [Raw] is a document's bytes as given.
package transcode
