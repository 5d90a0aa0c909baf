package specdoc

import (
	"bytes"
	"io/fs"

	"github.com/openapi-viewer/viewer/internal/bundle"
	"github.com/openapi-viewer/viewer/internal/transcode"
)

// UIVersion is the version of the Swagger UI that renders a document,
// which decides the OpenAPI versions Load accepts.
type UIVersion = transcode.UIVersion

// File is a document value that is always a file path, whatever its text.
// The root package's File is this type.
type File string

// Bytes is a document value that is always a YAML or JSON document, as a
// []byte is. The root package's Bytes is this type.
type Bytes []byte

// Document is a checked document in its served forms.
type Document struct {
	Source string // the file path, or the config field of a document given as bytes or an object
	JSON   []byte // indented with two spaces, in the author's key order, with little spare capacity
	head   transcode.Head
	Files  []string // the files read: the document's own, then those its $refs named
}

// Title returns the document's info.title.
func (d *Document) Title() string { return d.head.Title() }

// YAML returns the document as YAML, in the author's key order.
func (d *Document) YAML() ([]byte, error) { return transcode.JSONToYAML(d.JSON) }

// Load reads, bundles, converts and checks one document: v is a file path
// (a string or a File), the document's bytes ([]byte, Bytes,
// json.RawMessage), or a map or struct to encode as JSON. Files are read
// from fsys when it is not nil, else from the OS. field names the config
// field v comes from, for errors; ui is the version of the Swagger UI that
// will render the document, which decides the OpenAPI versions accepted. A
// problem with the document is a *transcode.Error, one with v itself an
// error wrapping [ErrInvalidConfig].
func Load(v any, fsys fs.FS, field string, ui UIVersion) (*Document, error) {
	raw, err := readSpec(v, fsys, field)
	if err != nil {
		return nil, err
	}
	var (
		doc    []byte
		head   transcode.Head
		files  []string
		locate transcode.Locator
	)
	if raw.File != "" {
		files = []string{raw.File}
	}
	if raw.IsJSON {
		doc, err = transcode.IndentJSON(raw)
		switch {
		case err != nil && !raw.StrictJSON:
			// YAML flow documents also start with '{'; try reading it as
			// YAML, and report the JSON error when that fails too.
			yamlDoc, yamlHead, yamlFiles, yamlLocate, yamlErr := yamlDocument(raw, fsys, nil)
			if yamlErr != nil {
				return nil, err
			}
			doc, head, files, locate = yamlDoc, yamlHead, yamlFiles, yamlLocate
		case err != nil:
			return nil, err
		case bundle.HasFileRefs(raw.Data):
			// Bundling needs the tree; the document was checked as JSON
			// first, so its errors keep JSON's wording.
			if doc, head, files, locate, err = yamlDocument(raw, fsys, doc); err != nil {
				return nil, err
			}
		default:
			if head, err = transcode.HeadOfJSON(doc, raw.Source); err != nil {
				return nil, err
			}
		}
	} else if doc, head, files, locate, err = yamlDocument(raw, fsys, nil); err != nil {
		return nil, err
	}
	if err := head.CheckIn(raw.Source, ui, locate); err != nil {
		return nil, err
	}
	if cap(doc)-len(doc) > len(doc)/16 {
		// A document stays in memory as long as the router serves it.
		doc = bytes.Clone(doc)
	}
	return &Document{Source: raw.Source, JSON: doc, head: head, Files: files}, nil
}

// yamlDocument parses a YAML document (or a JSON one, as YAML), bundles the
// files its $refs name, and writes it as JSON. indented, when not nil, is
// the JSON document re-indented, parsed instead when the original does not
// parse as YAML (JSON allows tabs where YAML does not). The Locator, not
// nil when the document was bundled, names the $ref and file of a problem
// the head check finds in a part read from another file.
func yamlDocument(raw transcode.Raw, fsys fs.FS, indented []byte) ([]byte, transcode.Head, []string, transcode.Locator, error) {
	root, err := transcode.ParseYAML(raw)
	if err != nil && indented != nil {
		root, err = transcode.ParseYAML(transcode.Raw{Source: raw.Source, Data: indented})
	}
	if err != nil {
		return nil, transcode.Head{}, nil, nil, err
	}
	var (
		files  []string
		locate transcode.Locator
	)
	if raw.File != "" {
		files = []string{raw.File}
	}
	size := len(raw.Data)
	if bundle.HasFileRefs(raw.Data) {
		res, err := bundle.Bundle(root, raw.File, raw.Source, fsys, readFile, size)
		if err != nil {
			return nil, transcode.Head{}, nil, nil, err
		}
		files, size, locate = res.Files, res.Size, res.Locate
	}
	doc, head, err := transcode.NodeToJSON(root, raw.Source, size)
	if err != nil {
		return nil, transcode.Head{}, nil, nil, err
	}
	return doc, head, files, locate, nil
}
