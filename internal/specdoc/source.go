package specdoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"reflect"
	"strings"

	"github.com/openapi-viewer/viewer/internal/transcode"
)

// readSpec turns a FilePathOrSpec value into bytes. field names the config
// field, for errors about values that are not files.
func readSpec(v any, fsys fs.FS, field string) (transcode.Raw, error) {
	switch s := v.(type) {
	case nil:
		return transcode.Raw{}, configErrorf("%s is required: a file path, []byte or an object", field)
	case string:
		if looksLikeDocument(s) {
			return transcode.Raw{}, configErrorf("%s is a string that holds a document, not a file path: "+
				"pass the document as viewer.Bytes(doc) (or []byte), or a path as viewer.File(path)", field)
		}
		return readSpecFile(s, fsys, field)
	case File:
		return readSpecFile(string(s), fsys, field)
	case []byte:
		return transcode.Raw{Source: field, Data: s, IsJSON: looksLikeJSON(s)}, nil
	case Bytes:
		return transcode.Raw{Source: field, Data: s, IsJSON: looksLikeJSON(s)}, nil
	case json.RawMessage:
		return transcode.Raw{Source: field, Data: s, IsJSON: true, StrictJSON: true}, nil
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Struct, reflect.Pointer, reflect.Interface:
	default:
		return transcode.Raw{}, configErrorf("%s has unsupported type %T: want a file path, []byte, or a map or struct", field, v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return transcode.Raw{}, &transcode.Error{Source: field, Err: fmt.Errorf("encoding %T as JSON: %w", v, err)}
	}
	return transcode.Raw{Source: field, Data: data, IsJSON: true, StrictJSON: true}, nil
}

func readSpecFile(name string, fsys fs.FS, field string) (transcode.Raw, error) {
	if name == "" {
		return transcode.Raw{}, configErrorf("%s is an empty path", field)
	}
	data, err := readFile(fsys, name)
	if err != nil {
		return transcode.Raw{}, &transcode.Error{Source: name, Err: err}
	}
	strict := strings.EqualFold(path.Ext(name), ".json")
	return transcode.Raw{Source: name, File: name, Data: data, IsJSON: strict || looksLikeJSON(data), StrictJSON: strict, Owned: true}, nil
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
			err = pe.Err // the path is already in the Error
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
	data = transcode.TrimBOM(data)
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

// looksLikeDocument reports whether a string given as a file path is more
// likely a document: it spans lines, or starts like JSON or like an OpenAPI
// document in YAML. No sensible file name does.
func looksLikeDocument(s string) bool {
	if strings.ContainsAny(s, "\n\r") {
		return true
	}
	t := strings.TrimLeft(strings.TrimPrefix(s, transcode.UTF8BOM), " \t")
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
