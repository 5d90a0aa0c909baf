package viewer

import (
	"io/fs"
)

// loadedSpec is a checked document in its served forms.
type loadedSpec struct {
	source string
	json   []byte // indented with two spaces, in the author's key order
	head   specHead
	files  []string // the files read: the document's own, then those its $refs named
}

// loadSpec reads, bundles, converts and checks one document. field names
// the config field it comes from, for errors; ui is the version of the
// Swagger UI that will render it, which decides the OpenAPI versions
// accepted.
func loadSpec(v any, fsys fs.FS, field string, ui uiVersion) (*loadedSpec, error) {
	raw, err := readSpec(v, fsys, field)
	if err != nil {
		return nil, err
	}
	var (
		doc   []byte
		head  specHead
		files []string
	)
	if raw.file != "" {
		files = []string{raw.file}
	}
	if raw.isJSON {
		doc, err = indentJSON(raw)
		switch {
		case err != nil && !raw.strictJSON:
			// YAML flow documents also start with '{'; try reading it as
			// YAML, and report the JSON error when that fails too.
			yamlDoc, yamlHead, yamlFiles, yamlErr := yamlDocument(raw, fsys, nil)
			if yamlErr != nil {
				return nil, err
			}
			doc, head, files = yamlDoc, yamlHead, yamlFiles
		case err != nil:
			return nil, err
		case hasFileRefs(raw.data):
			// Bundling needs the tree; the document was checked as JSON
			// first, so its errors keep JSON's wording.
			if doc, head, files, err = yamlDocument(raw, fsys, doc); err != nil {
				return nil, err
			}
		default:
			if head, err = headOfJSON(doc, raw.source); err != nil {
				return nil, err
			}
		}
	} else if doc, head, files, err = yamlDocument(raw, fsys, nil); err != nil {
		return nil, err
	}
	if err := head.check(raw.source, ui); err != nil {
		return nil, err
	}
	return &loadedSpec{source: raw.source, json: compact(doc), head: head, files: files}, nil
}

// yamlDocument parses a YAML document (or a JSON one, as YAML), bundles the
// files its $refs name, and writes it as JSON. indented, when not nil, is
// the JSON document re-indented, parsed instead when the original does not
// parse as YAML (JSON allows tabs where YAML does not).
func yamlDocument(raw rawSpec, fsys fs.FS, indented []byte) ([]byte, specHead, []string, error) {
	root, err := parseYAML(raw)
	if err != nil && indented != nil {
		root, err = parseYAML(rawSpec{source: raw.source, data: indented})
	}
	if err != nil {
		return nil, specHead{}, nil, err
	}
	var files []string
	if raw.file != "" {
		files = []string{raw.file}
	}
	size := len(raw.data)
	if hasFileRefs(raw.data) {
		if files, size, err = bundle(root, raw.file, raw.source, fsys, size); err != nil {
			return nil, specHead{}, nil, err
		}
	}
	doc, head, err := nodeToJSON(root, raw.source, size)
	if err != nil {
		return nil, specHead{}, nil, err
	}
	return doc, head, files, nil
}
