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

// Raw is a document as given, before parsing.
type Raw struct {
	Source string // for errors: file path, or the config field
	File   string // the file path, for a document read from a file
	Data   []byte
	IsJSON bool // data looks like JSON (it starts with '{' or '[')
	// StrictJSON: data must be JSON (a .json file, a marshalled object), so
	// a JSON error is not retried as YAML.
	StrictJSON bool
	// Owned: data is the package's to change (read from a file), not the
	// caller's.
	Owned bool
}

// readSpec turns a FilePathOrSpec value into bytes. field names the config
// field, for errors about values that are not files.
func readSpec(v any, fsys fs.FS, field string) (Raw, error) {
	switch s := v.(type) {
	case nil:
		return Raw{}, configErrorf("%s is required: a file path, []byte or an object", field)
	case string:
		if looksLikeDocument(s) {
			return Raw{}, configErrorf("%s is a string that holds a document, not a file path: "+
				"pass the document as viewer.Bytes(doc) (or []byte), or a path as viewer.File(path)", field)
		}
		return readSpecFile(s, fsys, field)
	case File:
		return readSpecFile(string(s), fsys, field)
	case []byte:
		return Raw{Source: field, Data: s, IsJSON: looksLikeJSON(s)}, nil
	case Bytes:
		return Raw{Source: field, Data: s, IsJSON: looksLikeJSON(s)}, nil
	case json.RawMessage:
		return Raw{Source: field, Data: s, IsJSON: true, StrictJSON: true}, nil
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Struct, reflect.Pointer, reflect.Interface:
	default:
		return Raw{}, configErrorf("%s has unsupported type %T: want a file path, []byte, or a map or struct", field, v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return Raw{}, &SpecError{Source: field, Err: fmt.Errorf("encoding %T as JSON: %w", v, err)}
	}
	return Raw{Source: field, Data: data, IsJSON: true, StrictJSON: true}, nil
}

func readSpecFile(name string, fsys fs.FS, field string) (Raw, error) {
	if name == "" {
		return Raw{}, configErrorf("%s is an empty path", field)
	}
	data, err := readFile(fsys, name)
	if err != nil {
		return Raw{}, &SpecError{Source: name, Err: err}
	}
	strict := strings.EqualFold(path.Ext(name), ".json")
	return Raw{Source: name, File: name, Data: data, IsJSON: strict || looksLikeJSON(data), StrictJSON: strict, Owned: true}, nil
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
		return nil, fmt.Errorf("%s: %w", where, &UnreadFileError{name: name, err: err})
	}
	return data, nil
}

// UnreadFileError is a file that could not be read, named so that
// Config.Watch can watch for it to appear; its message is err's alone.
type UnreadFileError struct {
	name string
	err  error
}

func (e *UnreadFileError) Error() string { return e.err.Error() }
func (e *UnreadFileError) Unwrap() error { return e.err }

// looksLikeJSON reports whether a document is JSON rather than YAML: its
// first non-blank character opens a JSON object or array. YAML flow
// documents look the same; they are parsed as YAML when JSON parsing fails.
func looksLikeJSON(data []byte) bool {
	data = TrimBOM(data)
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

// UTF8BOM is the byte order mark some editors put at the start of a file.
const UTF8BOM = "\xEF\xBB\xBF"

func TrimBOM(data []byte) []byte {
	if len(data) >= 3 && string(data[:3]) == UTF8BOM {
		return data[3:]
	}
	return data
}
