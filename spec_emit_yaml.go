package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// jsonToYAML writes a JSON document as block-style YAML indented with two
// spaces, keeping its key order. It streams the JSON's tokens, so it never
// holds a tree of the document. Strings are written plain when no YAML
// parser (1.1 or 1.2) could read them as anything else, as literal blocks
// when they span lines, and double-quoted otherwise.
func jsonToYAML(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	e := yamlEmitter{dec: dec}
	e.out.Grow(len(doc))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("converting to YAML: %w", err)
	}
	if err := e.value(tok, 0, posTop); err != nil {
		return nil, fmt.Errorf("converting to YAML: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("converting to YAML: data after the document")
	}
	return e.out.Bytes(), nil
}

// Where a value starts: at the top of the document, after "key:", or after
// "- " (the cursor is then already at the value's column).
type yamlPos int

const (
	posTop yamlPos = iota
	posAfterKey
	posAfterDash
)

type yamlEmitter struct {
	dec *json.Decoder
	out bytes.Buffer
}

func (e *yamlEmitter) indent(col int) {
	for i := 0; i < col; i++ {
		e.out.WriteByte(' ')
	}
}

// value writes the value that starts with tok. col is the column of the
// value's own lines (its pairs, items or block text).
func (e *yamlEmitter) value(tok json.Token, col int, pos yamlPos) error {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			return e.mapping(col, pos)
		case '[':
			return e.sequence(col, pos)
		}
		return fmt.Errorf("unexpected %q", rune(t))
	case string:
		if strings.IndexByte(t, '\n') >= 0 && literalSafe(t) {
			e.literal(t, col, pos)
			return nil
		}
		e.lead(pos)
		e.out.Write(appendYAMLString(e.out.AvailableBuffer(), t))
		e.out.WriteByte('\n')
	case json.Number:
		e.scalar(string(t), pos)
	case bool:
		if t {
			e.scalar("true", pos)
		} else {
			e.scalar("false", pos)
		}
	case nil:
		e.scalar("null", pos)
	default:
		return fmt.Errorf("unexpected token %v", tok)
	}
	return nil
}

// lead writes what separates a scalar from the "key:" before it.
func (e *yamlEmitter) lead(pos yamlPos) {
	if pos == posAfterKey {
		e.out.WriteByte(' ')
	}
}

func (e *yamlEmitter) scalar(text string, pos yamlPos) {
	e.lead(pos)
	e.out.WriteString(text)
	e.out.WriteByte('\n')
}

func (e *yamlEmitter) mapping(col int, pos yamlPos) error {
	if !e.dec.More() {
		_, err := e.dec.Token() // '}'
		e.scalar("{}", pos)
		return err
	}
	if pos == posAfterKey {
		e.out.WriteByte('\n')
	}
	for first := true; e.dec.More(); first = false {
		tok, err := e.dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("unexpected key %v", tok)
		}
		if !first || pos != posAfterDash {
			e.indent(col)
		}
		e.writeKey(key, col)
		if tok, err = e.dec.Token(); err != nil {
			return err
		}
		if err := e.value(tok, col+2, posAfterKey); err != nil {
			return err
		}
	}
	_, err := e.dec.Token() // '}'
	return err
}

// maxImplicitKey is the longest key written as "key:". YAML limits an
// implicit key to 1024 characters (yaml.v3 counts them after quoting);
// a longer one is written as an explicit key, "? key" then ":" on the next
// line, which has no limit.
const maxImplicitKey = 1000

func (e *yamlEmitter) writeKey(key string, col int) {
	start := e.out.Len()
	e.out.Write(appendYAMLString(e.out.AvailableBuffer(), key))
	if e.out.Len()-start <= maxImplicitKey {
		e.out.WriteByte(':')
		return
	}
	encoded := append([]byte("? "), e.out.Bytes()[start:]...)
	e.out.Truncate(start)
	e.out.Write(encoded)
	e.out.WriteByte('\n')
	e.indent(col)
	e.out.WriteByte(':')
}

func (e *yamlEmitter) sequence(col int, pos yamlPos) error {
	if !e.dec.More() {
		_, err := e.dec.Token() // ']'
		e.scalar("[]", pos)
		return err
	}
	if pos == posAfterKey {
		e.out.WriteByte('\n')
	}
	for first := true; e.dec.More(); first = false {
		if !first || pos != posAfterDash {
			e.indent(col)
		}
		e.out.WriteString("- ")
		tok, err := e.dec.Token()
		if err != nil {
			return err
		}
		if err := e.value(tok, col+2, posAfterDash); err != nil {
			return err
		}
	}
	_, err := e.dec.Token() // ']'
	return err
}

// literal writes a multi-line string as a literal block scalar, with the
// chomping indicator that keeps its trailing newlines exact.
func (e *yamlEmitter) literal(s string, col int, pos yamlPos) {
	e.lead(pos)
	body := s
	switch {
	case !strings.HasSuffix(s, "\n"):
		e.out.WriteString("|-\n")
	case strings.HasSuffix(s, "\n\n"):
		e.out.WriteString("|+\n")
		body = s[:len(s)-1]
	default:
		e.out.WriteString("|\n")
		body = s[:len(s)-1]
	}
	for _, line := range strings.Split(body, "\n") {
		if line != "" {
			e.indent(col)
			e.out.WriteString(line)
		}
		e.out.WriteByte('\n')
	}
}

// literalSafe reports whether s reads back exactly from a literal block:
// some text (a block of empty lines reads back as ""), printable, no carriage
// returns, no line that starts the block with white space (that would change
// the detected indentation), no trailing white space on a line.
func literalSafe(s string) bool {
	if strings.Trim(s, "\n") == "" {
		return false
	}
	firstText := true
	for _, line := range strings.Split(s, "\n") {
		if line == "" {
			continue
		}
		if firstText && (line[0] == ' ' || line[0] == '\t') {
			return false
		}
		firstText = false
		if last := line[len(line)-1]; last == ' ' || last == '\t' {
			return false
		}
		for _, r := range line {
			if r != '\t' && !yamlPrintable(r) {
				return false
			}
		}
	}
	return true
}

// yamlPrintable reports whether r may appear unescaped in a YAML scalar.
func yamlPrintable(r rune) bool {
	switch {
	case r < 0x20, r == 0x7F, r >= 0x80 && r <= 0x9F:
		return false
	case r == 0x2028, r == 0x2029, r == 0xFEFF, r == 0xFFFE, r == 0xFFFF, r == utf8.RuneError:
		return false
	}
	return true
}

// appendYAMLString appends s as a plain scalar when that is unambiguous,
// else as a double-quoted scalar.
func appendYAMLString(dst []byte, s string) []byte {
	if plainSafe(s) {
		return append(dst, s...)
	}
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, '\\', 'n')
		case r == '\t':
			dst = append(dst, '\\', 't')
		case r == '\r':
			dst = append(dst, '\\', 'r')
		case r < 0x80 && !yamlPrintable(r):
			dst = append(dst, '\\', 'x', hex[r>>4], hex[r&0xF])
		case !yamlPrintable(r) && r <= 0xFFFF:
			dst = append(dst, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

// plainSafe reports whether s can be written as a plain scalar and read back
// as the same string by YAML 1.1 and 1.2 parsers alike. It errs on the side
// of quoting.
func plainSafe(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if isDottedVersion(s) {
		return true // "3.1.0": no YAML schema reads two dots as a number or a date
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`+.=~<0123456789") {
		return false // indicators, and the first characters of numbers, dates and merge keys
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return false
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "true", "false", "on", "off", "null":
		return false
	}
	for _, r := range s {
		if r == '\t' || !yamlPrintable(r) {
			return false
		}
	}
	return true
}

// isDottedVersion reports whether s is digits separated by two or more dots,
// like a version number ("3.0.3").
func isDottedVersion(s string) bool {
	dots, digits := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && digits > 0:
			dots++
			digits = 0
		default:
			return false
		}
	}
	return dots >= 2 && digits > 0
}
