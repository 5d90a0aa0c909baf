package viewer

import (
	"io/fs"
)

// Document is a checked document in its served forms.
type Document struct {
	Source string
	JSON   []byte // indented with two spaces, in the author's key order
	head   Head
	Files  []string // the files read: the document's own, then those its $refs named
}

// loadSpec reads, bundles, converts and checks one document. field names
// the config field it comes from, for errors; ui is the version of the
// Swagger UI that will render it, which decides the OpenAPI versions
// accepted.
func loadSpec(v any, fsys fs.FS, field string, ui UIVersion) (*Document, error) {
	raw, err := readSpec(v, fsys, field)
	if err != nil {
		return nil, err
	}
	var (
		doc   []byte
		head  Head
		files []string
	)
	if raw.File != "" {
		files = []string{raw.File}
	}
	if raw.IsJSON {
		doc, err = IndentJSON(raw)
		switch {
		case err != nil && !raw.StrictJSON:
			// YAML flow documents also start with '{'; try reading it as
			// YAML, and report the JSON error when that fails too.
			yamlDoc, yamlHead, yamlFiles, yamlErr := yamlDocument(raw, fsys, nil)
			if yamlErr != nil {
				return nil, err
			}
			doc, head, files = yamlDoc, yamlHead, yamlFiles
		case err != nil:
			return nil, err
		case HasFileRefs(raw.Data):
			// Bundling needs the tree; the document was checked as JSON
			// first, so its errors keep JSON's wording.
			if doc, head, files, err = yamlDocument(raw, fsys, doc); err != nil {
				return nil, err
			}
		default:
			if head, err = HeadOfJSON(doc, raw.Source); err != nil {
				return nil, err
			}
		}
	} else if doc, head, files, err = yamlDocument(raw, fsys, nil); err != nil {
		return nil, err
	}
	if err := head.Check(raw.Source, ui); err != nil {
		return nil, err
	}
	return &Document{Source: raw.Source, JSON: compact(doc), head: head, Files: files}, nil
}

// yamlDocument parses a YAML document (or a JSON one, as YAML), bundles the
// files its $refs name, and writes it as JSON. indented, when not nil, is
// the JSON document re-indented, parsed instead when the original does not
// parse as YAML (JSON allows tabs where YAML does not).
func yamlDocument(raw Raw, fsys fs.FS, indented []byte) ([]byte, Head, []string, error) {
	root, err := ParseYAML(raw)
	if err != nil && indented != nil {
		root, err = ParseYAML(Raw{Source: raw.Source, Data: indented})
	}
	if err != nil {
		return nil, Head{}, nil, err
	}
	var files []string
	if raw.File != "" {
		files = []string{raw.File}
	}
	size := len(raw.Data)
	if HasFileRefs(raw.Data) {
		if files, size, err = Bundle(root, raw.File, raw.Source, fsys, size); err != nil {
			return nil, Head{}, nil, err
		}
	}
	doc, head, err := NodeToJSON(root, raw.Source, size)
	if err != nil {
		return nil, Head{}, nil, err
	}
	return doc, head, files, nil
}
