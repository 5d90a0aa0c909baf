package transcode

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// JSONToYAML writes a JSON document as block-style YAML indented with two
// spaces, keeping its key order. It scans the JSON's tokens in place, so it
// never holds a tree of the document and makes no garbage per token, and it
// runs twice: once to count the YAML's bytes, once to write them into a
// buffer of that exact size, so that converting GitHub's 13 MB description
// costs its 10 MB of YAML and little more (bench/README.md). Strings are
// written plain when no YAML parser (1.1 or 1.2) could read them as
// anything else, as literal blocks when they span lines, and double-quoted
// otherwise.
func JSONToYAML(doc []byte) ([]byte, error) {
	counter := yamlEmitter{sc: jsonScanner{b: doc}, counting: true}
	if err := counter.document(); err != nil {
		return nil, fmt.Errorf("converting to YAML: %w", err)
	}
	size := counter.counted + len(counter.out)
	e := yamlEmitter{sc: jsonScanner{b: doc}, out: make([]byte, 0, size)}
	if err := e.document(); err != nil {
		return nil, fmt.Errorf("converting to YAML: %w", err)
	}
	return e.out, nil
}

// Where a value starts: at the top of the document, after "key:", or after
// "- " (the cursor is then already at the value's column).
type yamlPos int

const (
	posTop yamlPos = iota
	posAfterKey
	posAfterDash
)

// yamlEmitter writes YAML from the tokens of sc. When counting, it only
// counts: out is emptied into counted whenever it exceeds countChunk.
type yamlEmitter struct {
	sc       jsonScanner
	out      []byte
	counting bool
	counted  int
}

const countChunk = 32 << 10

func (e *yamlEmitter) document() error {
	kind, err := e.sc.next()
	if err != nil {
		return err
	}
	if err := e.value(kind, 0, posTop); err != nil {
		return err
	}
	if kind, err := e.sc.next(); err != nil || kind != 0 {
		return errors.New("data after the document")
	}
	return nil
}

// spill empties out into counted when counting.
func (e *yamlEmitter) spill() {
	if e.counting && len(e.out) > countChunk {
		e.counted += len(e.out)
		e.out = e.out[:0]
	}
}

func (e *yamlEmitter) indent(col int) {
	for i := 0; i < col; i++ {
		e.out = append(e.out, ' ')
	}
}

// value writes the value whose first token is of kind (see jsonScanner.next).
// col is the column of the value's own lines (its pairs, items or block
// text).
func (e *yamlEmitter) value(kind byte, col int, pos yamlPos) error {
	e.spill()
	switch kind {
	case '{':
		return e.mapping(col, pos)
	case '[':
		return e.sequence(col, pos)
	case '"':
		t := e.sc.str
		if bytes.IndexByte(t, '\n') >= 0 && literalSafe(t) {
			e.literal(t, col, pos)
			return nil
		}
		e.lead(pos)
		e.out = appendYAMLString(e.out, t)
		e.out = append(e.out, '\n')
	case '0', 't', 'f', 'n':
		e.scalar(e.sc.lit, pos)
	default:
		return fmt.Errorf("unexpected %q at offset %d", rune(kind), e.sc.i)
	}
	return nil
}

// lead writes what separates a scalar from the "key:" before it.
func (e *yamlEmitter) lead(pos yamlPos) {
	if pos == posAfterKey {
		e.out = append(e.out, ' ')
	}
}

func (e *yamlEmitter) scalar(text []byte, pos yamlPos) {
	e.lead(pos)
	e.out = append(e.out, text...)
	e.out = append(e.out, '\n')
}

func (e *yamlEmitter) mapping(col int, pos yamlPos) error {
	if e.sc.atEnd('}') {
		e.scalar([]byte("{}"), pos)
		return nil
	}
	if pos == posAfterKey {
		e.out = append(e.out, '\n')
	}
	for first := true; ; first = false {
		kind, err := e.sc.next()
		if err != nil {
			return err
		}
		if kind == '}' {
			return nil
		}
		if kind != '"' {
			return fmt.Errorf("unexpected key %q at offset %d", rune(kind), e.sc.i)
		}
		if !first || pos != posAfterDash {
			e.indent(col)
		}
		e.writeKey(e.sc.str, col)
		if kind, err = e.sc.next(); err != nil {
			return err
		}
		if err := e.value(kind, col+2, posAfterKey); err != nil {
			return err
		}
	}
}

// maxImplicitKey is the longest key written as "key:". YAML limits an
// implicit key to 1024 characters (yaml.v3 counts them after quoting);
// a longer one is written as an explicit key, "? key" then ":" on the next
// line, which has no limit.
const maxImplicitKey = 1000

func (e *yamlEmitter) writeKey(key []byte, col int) {
	start := len(e.out)
	e.out = appendYAMLString(e.out, key)
	if len(e.out)-start <= maxImplicitKey {
		e.out = append(e.out, ':')
		return
	}
	e.out = append(e.out, "? "...)
	copy(e.out[start+2:], e.out[start:len(e.out)-2])
	copy(e.out[start:], "? ")
	e.out = append(e.out, '\n')
	e.indent(col)
	e.out = append(e.out, ':')
}

func (e *yamlEmitter) sequence(col int, pos yamlPos) error {
	if e.sc.atEnd(']') {
		e.scalar([]byte("[]"), pos)
		return nil
	}
	if pos == posAfterKey {
		e.out = append(e.out, '\n')
	}
	for first := true; ; first = false {
		kind, err := e.sc.next()
		if err != nil {
			return err
		}
		if kind == ']' {
			return nil
		}
		if !first || pos != posAfterDash {
			e.indent(col)
		}
		e.out = append(e.out, "- "...)
		if err := e.value(kind, col+2, posAfterDash); err != nil {
			return err
		}
	}
}

// literal writes a multi-line string as a literal block scalar, with the
// chomping indicator that keeps its trailing newlines exact.
func (e *yamlEmitter) literal(s []byte, col int, pos yamlPos) {
	e.lead(pos)
	body := s
	switch {
	case !bytes.HasSuffix(s, []byte("\n")):
		e.out = append(e.out, "|-\n"...)
	case bytes.HasSuffix(s, []byte("\n\n")):
		e.out = append(e.out, "|+\n"...)
		body = s[:len(s)-1]
	default:
		e.out = append(e.out, "|\n"...)
		body = s[:len(s)-1]
	}
	for {
		line, rest, more := bytes.Cut(body, []byte("\n"))
		if len(line) > 0 {
			e.indent(col)
			e.out = append(e.out, line...)
		}
		e.out = append(e.out, '\n')
		if !more {
			return
		}
		body = rest
	}
}

// literalSafe reports whether s reads back exactly from a literal block:
// some text (a block of empty lines reads back as ""), printable, no carriage
// returns, no line that starts the block with white space (that would change
// the detected indentation), no trailing white space on a line.
func literalSafe(s []byte) bool {
	if len(bytes.Trim(s, "\n")) == 0 {
		return false
	}
	firstText := true
	for rest, more := s, true; more; {
		var line []byte
		line, rest, more = bytes.Cut(rest, []byte("\n"))
		if len(line) == 0 {
			continue
		}
		if firstText && (line[0] == ' ' || line[0] == '\t') {
			return false
		}
		firstText = false
		if last := line[len(line)-1]; last == ' ' || last == '\t' {
			return false
		}
		for _, r := range string(line) {
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
func appendYAMLString(dst []byte, s []byte) []byte {
	if plainSafe(s) {
		return append(dst, s...)
	}
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range string(s) {
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
func plainSafe(s []byte) bool {
	if len(s) == 0 || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if isDottedVersion(s) {
		return true // "3.1.0": no YAML schema reads two dots as a number or a date
	}
	if strings.IndexByte("-?:,[]{}#&*!|>'\"%@`+.=~<0123456789", s[0]) >= 0 {
		return false // indicators, and the first characters of numbers, dates and merge keys
	}
	if bytes.Contains(s, []byte(": ")) || bytes.Contains(s, []byte(" #")) {
		return false
	}
	if len(s) <= 5 {
		for _, word := range []string{"y", "n", "yes", "no", "true", "false", "on", "off", "null"} {
			if len(s) == len(word) && strings.EqualFold(string(s), word) {
				return false
			}
		}
	}
	for _, r := range string(s) {
		if r == '\t' || !yamlPrintable(r) {
			return false
		}
	}
	return true
}

// isDottedVersion reports whether s is digits separated by two or more dots,
// like a version number ("3.0.3").
func isDottedVersion(s []byte) bool {
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
