package transcode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlToJSON parses a YAML document (YAML 1.2 scalars: y, yes and on stay
// strings) and writes it as JSON indented with two spaces, keeping the
// author's key order. It also returns the head of the document for Setup's
// checks, with line numbers.
func yamlToJSON(src Raw) ([]byte, Head, error) {
	root, err := ParseYAML(src)
	if err != nil {
		return nil, Head{}, err
	}
	return NodeToJSON(root, src.Source, len(src.Data))
}

// ParseYAML parses a document of one YAML (or JSON) document and returns
// its root mapping.
func ParseYAML(src Raw) (*yaml.Node, error) {
	root, err := ParseYAMLValue(src)
	if err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		return nil, &Error{Source: src.Source, Line: root.Line, Err: errNotMapping(YAMLKind(root))}
	}
	return root, nil
}

// ParseYAMLValue parses a file of one YAML (or JSON) value of any kind (a
// part of a document that a $ref names may be a list or a scalar) and
// returns it.
func ParseYAMLValue(src Raw) (*yaml.Node, error) {
	data := TrimBOM(src.Data)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{Source: src.Source, Err: errNotMapping("empty")}
		}
		return nil, &Error{Source: src.Source, Line: yamlErrorLine(err), Err: fmt.Errorf("invalid YAML: %s", trimYAMLPrefix(err))}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{Source: src.Source, Line: extra.Line, Err: errors.New("the file holds more than one YAML document; keep only the OpenAPI document")}
	} else if !errors.Is(err, io.EOF) {
		return nil, &Error{Source: src.Source, Line: yamlErrorLine(err), Err: fmt.Errorf("invalid YAML: %s", trimYAMLPrefix(err))}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	return ResolveAlias(root), nil
}

// NodeToJSON writes a parsed document as indented JSON and reads its head.
func NodeToJSON(root *yaml.Node, source string, size int) ([]byte, Head, error) {
	w := jsonWriter{limit: 64*size + 1<<20, merges: newMergeBudget(size)}
	w.buf.Grow(size + size/2)
	if err := w.value(root, 0); err != nil {
		return nil, Head{}, nodeError(source, err)
	}
	w.buf.WriteByte('\n')
	head, err := headOfYAML(root, newMergeBudget(size))
	if err != nil {
		return nil, Head{}, nodeError(source, err) // cannot happen: the writer expanded the same merges
	}
	return w.buf.Bytes(), head, nil
}

// CheckNode checks a parsed document as NodeToJSON writes it (duplicate
// keys, numbers JSON cannot hold, merges), naming source and its lines in
// errors; size is the document's size in bytes, which bounds the work.
func CheckNode(root *yaml.Node, source string, size int) error {
	w := jsonWriter{limit: 64*size + 1<<20, merges: newMergeBudget(size)}
	if err := w.value(root, 0); err != nil {
		return nodeError(source, err)
	}
	return nil
}

// nodeError turns an error from the JSON writer into a *Error.
func nodeError(source string, err error) error {
	var ye *yamlNodeError
	if errors.As(err, &ye) {
		return &Error{Source: source, Line: ye.line, Err: ye.err}
	}
	return &Error{Source: source, Err: err}
}

// yamlNodeError is a problem found at a line of the YAML document.
type yamlNodeError struct {
	line int
	err  error
}

func (e *yamlNodeError) Error() string { return e.err.Error() }

func nodeErrorf(n *yaml.Node, format string, args ...any) error {
	return &yamlNodeError{line: n.Line, err: fmt.Errorf(format, args...)}
}

// yamlErrorLine finds the line number in a yaml.v3 error message
// ("yaml: line 12: ...").
func yamlErrorLine(err error) int {
	msg := err.Error()
	i := strings.Index(msg, "line ")
	if i < 0 {
		return 0
	}
	j := i + len("line ")
	k := j
	for k < len(msg) && msg[k] >= '0' && msg[k] <= '9' {
		k++
	}
	n, convErr := strconv.Atoi(msg[j:k])
	if convErr != nil {
		return 0
	}
	return n
}

func trimYAMLPrefix(err error) string {
	s := err.Error()
	for _, p := range []string{"yaml: ", "unmarshal errors:\n  "} {
		if len(s) > len(p) && s[:len(p)] == p {
			s = s[len(p):]
		}
	}
	return s
}

func ResolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func YAMLKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		switch coreTag(n) {
		case "!!null":
			return "null"
		case "!!bool":
			return "boolean"
		case "!!int", "!!float":
			return "number"
		}
		return "string"
	}
	return "empty"
}

// jsonWriter writes YAML nodes as indented JSON.
type jsonWriter struct {
	buf    bytes.Buffer
	limit  int // output size past which aliases are taken for an expansion attack
	merges *mergeBudget
}

func (w *jsonWriter) newline(depth int) {
	w.buf.WriteByte('\n')
	for i := 0; i < depth; i++ {
		w.buf.WriteString("  ")
	}
}

func (w *jsonWriter) value(n *yaml.Node, depth int) error {
	if w.buf.Len() > w.limit {
		return nodeErrorf(n, "the document expands to over %d bytes through aliases", w.limit)
	}
	if depth > 1000 {
		return nodeErrorf(n, "the document nests deeper than 1000 levels")
	}
	n = ResolveAlias(n)
	switch n.Kind {
	case yaml.MappingNode:
		return w.mapping(n, depth)
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			w.buf.WriteString("[]")
			return nil
		}
		w.buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.newline(depth + 1)
			if err := w.value(item, depth+1); err != nil {
				return err
			}
		}
		w.newline(depth)
		w.buf.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		return w.scalar(n)
	}
	return nodeErrorf(n, "unexpected YAML node")
}

func (w *jsonWriter) mapping(n *yaml.Node, depth int) error {
	ps, err := pairs(n, w.merges)
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		w.buf.WriteString("{}")
		return nil
	}
	w.buf.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.newline(depth + 1)
		w.buf.Write(appendJSONString(w.buf.AvailableBuffer(), p[0].Value))
		w.buf.WriteString(": ")
		if err := w.value(p[1], depth+1); err != nil {
			return err
		}
	}
	w.newline(depth)
	w.buf.WriteByte('}')
	return nil
}

// isJSONNumber reports whether s follows JSON's number grammar (RFC 8259,
// section 6), so that it can be copied as is.
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func (w *jsonWriter) scalar(n *yaml.Node) error {
	tag := coreTag(n)
	if n.Style == 0 && (tag == "!!int" || tag == "!!float") {
		if isJSONNumber(n.Value) {
			w.buf.WriteString(n.Value) // as written: 1E5 stays 1E5
			return nil
		}
		text := coreInt(n.Value)
		if text == "" {
			text = coreFloat(n.Value)
		}
		if !isJSONNumber(text) {
			return nodeErrorf(n, "%s cannot be written as JSON: quote it to keep it as a string", n.Value)
		}
		w.buf.WriteString(text)
		return nil
	}
	switch tag {
	case "!!null":
		w.buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nodeErrorf(n, "invalid boolean %q", n.Value)
		}
		w.buf.WriteString(strconv.FormatBool(b))
	case "!!int", "!!float":
		if isJSONNumber(n.Value) {
			w.buf.WriteString(n.Value)
			return nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nodeErrorf(n, "invalid number %q", n.Value)
		}
		switch x := v.(type) {
		case int:
			w.buf.WriteString(strconv.Itoa(x))
		case int64:
			w.buf.WriteString(strconv.FormatInt(x, 10))
		case uint64:
			w.buf.WriteString(strconv.FormatUint(x, 10))
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nodeErrorf(n, "%s cannot be written as JSON: quote it to keep it as a string", n.Value)
			}
			w.buf.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		default:
			return nodeErrorf(n, "invalid number %q", n.Value)
		}
	default: // !!str, !!timestamp, !!binary and custom tags keep their text
		w.buf.Write(appendJSONString(w.buf.AvailableBuffer(), n.Value))
	}
	return nil
}

// appendJSONString appends s as a JSON string. Unlike encoding/json it
// leaves <, > and & alone (the output is served as JSON, not embedded in
// HTML); it escapes U+2028 and U+2029 so the JSON is also valid JavaScript.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			i++
			continue
		}
		if c < 0x80 {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		// U+2028 and U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
		if c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[s[i+2]&0xf])
			i += 3
			start = i
			continue
		}
		i++
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// headOfYAML reads the fields that Setup checks, with their lines. Merge
// keys are expanded as in the output, so a title merged into info counts.
func headOfYAML(root *yaml.Node, budget *mergeBudget) (Head, error) {
	var h Head
	get := func(m *yaml.Node, key string) (*yaml.Node, error) {
		ps, err := pairs(m, budget)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p[0].Value == key {
				return ResolveAlias(p[1]), nil
			}
		}
		return nil, nil
	}
	fieldOf := func(n *yaml.Node) field {
		if n == nil {
			return field{}
		}
		f := field{present: true, kind: YAMLKind(n), line: n.Line, node: n}
		if n.Kind == yaml.ScalarNode && f.kind != "null" {
			f.value = n.Value
		}
		return f
	}
	var nodes [3]*yaml.Node
	for i, key := range []string{"openapi", "swagger", "info"} {
		n, err := get(root, key)
		if err != nil {
			return h, err
		}
		nodes[i] = n
	}
	h.root = root
	h.openapi, h.swagger = fieldOf(nodes[0]), fieldOf(nodes[1])
	if info := nodes[2]; info != nil {
		h.info.present, h.info.line, h.info.node = true, info.Line, info
		if info.Kind == yaml.MappingNode {
			h.info.isMapping = true
			title, err := get(info, "title")
			if err != nil {
				return h, err
			}
			version, err := get(info, "version")
			if err != nil {
				return h, err
			}
			h.title, h.version = fieldOf(title), fieldOf(version)
		}
	}
	return h, nil
}
