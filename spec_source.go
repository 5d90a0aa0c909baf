package viewer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"reflect"
	"strings"
)

// rawSpec is a document as given, before parsing.
type rawSpec struct {
	source string // for errors: file path, or the config field
	file   string // the file path, for a document read from a file
	data   []byte
	isJSON bool // data looks like JSON (it starts with '{' or '[')
	// strictJSON: data must be JSON (a .json file, a marshalled object), so
	// a JSON error is not retried as YAML.
	strictJSON bool
	// owned: data is the package's to change (read from a file), not the
	// caller's.
	owned bool
}

// readSpec turns a FilePathOrSpec value into bytes. field names the config
// field, for errors about values that are not files.
func readSpec(v any, fsys fs.FS, field string) (rawSpec, error) {
	switch s := v.(type) {
	case nil:
		return rawSpec{}, configErrorf("%s is required: a file path, []byte or an object", field)
	case string:
		if looksLikeDocument(s) {
			return rawSpec{}, configErrorf("%s is a string that holds a document, not a file path: "+
				"pass the document as viewer.Bytes(doc) (or []byte), or a path as viewer.File(path)", field)
		}
		return readSpecFile(s, fsys, field)
	case File:
		return readSpecFile(string(s), fsys, field)
	case []byte:
		return rawSpec{source: field, data: s, isJSON: looksLikeJSON(s)}, nil
	case Bytes:
		return rawSpec{source: field, data: s, isJSON: looksLikeJSON(s)}, nil
	case json.RawMessage:
		return rawSpec{source: field, data: s, isJSON: true, strictJSON: true}, nil
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Struct, reflect.Pointer, reflect.Interface:
	default:
		return rawSpec{}, configErrorf("%s has unsupported type %T: want a file path, []byte, or a map or struct", field, v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return rawSpec{}, &SpecError{Source: field, Err: fmt.Errorf("encoding %T as JSON: %w", v, err)}
	}
	return rawSpec{source: field, data: data, isJSON: true, strictJSON: true}, nil
}

func readSpecFile(name string, fsys fs.FS, field string) (rawSpec, error) {
	if name == "" {
		return rawSpec{}, configErrorf("%s is an empty path", field)
	}
	data, err := readFile(fsys, name)
	if err != nil {
		return rawSpec{}, &SpecError{Source: name, Err: err}
	}
	strict := strings.EqualFold(path.Ext(name), ".json")
	return rawSpec{source: name, file: name, data: data, isJSON: strict || looksLikeJSON(data), strictJSON: strict, owned: true}, nil
}

func readFile(fsys fs.FS, name string) ([]byte, error) {
	var (
		data  []byte
		err   error
		where = "reading the file"
	)
	if fsys == nil {
		data, err = os.ReadFile(name)
	} else {
		// fs.FS paths are unrooted and slash-separated.
		where += " from Config.FS"
		data, err = fs.ReadFile(fsys, strings.TrimLeft(path.Clean(name), "/"))
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already in the SpecError
		}
		return nil, fmt.Errorf("%s: %w", where, &unreadFileError{name: name, err: err})
	}
	return data, nil
}

// unreadFileError is a file that could not be read, named so that
// Config.Watch can watch for it to appear; its message is err's alone.
type unreadFileError struct {
	name string
	err  error
}

func (e *unreadFileError) Error() string { return e.err.Error() }
func (e *unreadFileError) Unwrap() error { return e.err }

// looksLikeJSON reports whether a document is JSON rather than YAML: its
// first non-blank character opens a JSON object or array. YAML flow
// documents look the same; they are parsed as YAML when JSON parsing fails.
func looksLikeJSON(data []byte) bool {
	data = trimBOM(data)
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

// utf8BOM is the byte order mark some editors put at the start of a file.
const utf8BOM = "\xEF\xBB\xBF"

func trimBOM(data []byte) []byte {
	if len(data) >= 3 && string(data[:3]) == utf8BOM {
		return data[3:]
	}
	return data
}
