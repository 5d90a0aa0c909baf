package transcode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// IndentJSON re-indents a JSON document with two spaces, keeping its key
// order: only the white space is rewritten, without building a tree, into
// a slice of the output's size (indentValidJSON); json.Indent runs only to
// report where invalid JSON goes wrong.
func IndentJSON(src Raw) ([]byte, error) {
	data := TrimBOM(src.Data)
	if json.Valid(data) {
		if err := checkJSONKeys(data, src.Source); err != nil {
			return nil, err
		}
		return indentValidJSON(data, src.Owned), nil
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, "", "  "); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &Error{Source: src.Source, Line: lineAt(data, se.Offset),
				Err: fmt.Errorf("invalid JSON: %s", se.Error())}
		}
		return nil, &Error{Source: src.Source, Err: fmt.Errorf("invalid JSON: %w", err)}
	}
	if err := checkJSONKeys(data, src.Source); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// jsonHead is the part of a JSON document that Setup checks.
type jsonHead struct {
	OpenAPI json.RawMessage `json:"openapi"`
	Swagger json.RawMessage `json:"swagger"`
	Info    json.RawMessage `json:"info"`
}

// HeadOfJSON reads the fields that Setup checks from a JSON document,
// skipping the rest of it without building values.
func HeadOfJSON(doc []byte, source string) (Head, error) {
	var h Head
	if c := firstNonSpace(doc); c != '{' {
		return h, &Error{Source: source, Err: errNotMapping(kindOfJSON(c))}
	}
	var jh jsonHead
	if err := json.Unmarshal(doc, &jh); err != nil {
		return h, &Error{Source: source, Err: fmt.Errorf("invalid JSON: %w", err)}
	}
	h.openapi = jsonField(jh.OpenAPI)
	h.swagger = jsonField(jh.Swagger)
	if jh.Info != nil {
		h.info.present = true
		var info struct {
			Title   json.RawMessage `json:"title"`
			Version json.RawMessage `json:"version"`
		}
		if firstNonSpace(jh.Info) == '{' && json.Unmarshal(jh.Info, &info) == nil {
			h.info.isMapping = true
			h.title = jsonField(info.Title)
			h.version = jsonField(info.Version)
		}
	}
	return h, nil
}

func jsonField(raw json.RawMessage) field {
	if raw == nil {
		return field{}
	}
	f := field{present: true, kind: kindOfJSON(firstNonSpace(raw))}
	if f.kind == "string" {
		_ = json.Unmarshal(raw, &f.value)
	} else if f.kind == "number" || f.kind == "boolean" {
		f.value = string(bytes.TrimSpace(raw))
	}
	return f
}

func firstNonSpace(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

func kindOfJSON(c byte) string {
	switch c {
	case '{':
		return "mapping"
	case '[':
		return "list"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case 0:
		return "empty"
	}
	return "number"
}
