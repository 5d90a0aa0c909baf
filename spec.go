package viewer

import (
	"io/fs"
)

// loadedSpec is a checked document in its served forms.
type loadedSpec struct {
	source string
	json   []byte // indented with two spaces, in the author's key order
	head   specHead
}

// loadSpec reads, converts and checks one document. field names the config
// field it comes from, for errors.
func loadSpec(v any, fsys fs.FS, field string) (*loadedSpec, error) {
	raw, err := readSpec(v, fsys, field)
	if err != nil {
		return nil, err
	}
	var (
		doc  []byte
		head specHead
	)
	if raw.isJSON {
		doc, err = indentJSON(raw)
		if err != nil && !raw.strictJSON {
			// YAML flow documents also start with '{'; try reading it as
			// YAML, and report the JSON error when that fails too.
			yamlDoc, yamlHead, yamlErr := yamlToJSON(raw)
			if yamlErr != nil {
				return nil, err
			}
			doc, head = yamlDoc, yamlHead
		} else if err != nil {
			return nil, err
		} else if head, err = headOfJSON(doc, raw.source); err != nil {
			return nil, err
		}
	} else {
		if doc, head, err = yamlToJSON(raw); err != nil {
			return nil, err
		}
	}
	if err := head.check(raw.source); err != nil {
		return nil, err
	}
	return &loadedSpec{source: raw.source, json: compact(doc), head: head}, nil
}
