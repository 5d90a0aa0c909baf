package transcode_test

// The YAML writer as it was before JSONToYAML scanned tokens itself: the
// reference the differential tests compare it with (same output, byte for
// byte).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openapi-viewer/viewer/internal/specdoc"
	"github.com/openapi-viewer/viewer/internal/transcode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refJsonToYAML writes a JSON document as block-style YAML indented with two
// spaces, keeping its key order. It streams the JSON's tokens, so it never
// holds a tree of the document. Strings are written plain when no YAML
// parser (1.1 or 1.2) could read them as anything else, as literal blocks
// when they span lines, and double-quoted otherwise.
func refJsonToYAML(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	e := refYamlEmitter{dec: dec}
	e.out.Grow(len(doc))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("converting to YAML: %w", err)
	}
	if err := e.value(tok, 0, refPosTop); err != nil {
		return nil, fmt.Errorf("converting to YAML: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("converting to YAML: data after the document")
	}
	return e.out.Bytes(), nil
}

// Where a value starts: at the top of the document, after "key:", or after
// "- " (the cursor is then already at the value's column).
type refYamlPos int

const (
	refPosTop refYamlPos = iota
	refPosAfterKey
	refPosAfterDash
)

type refYamlEmitter struct {
	dec *json.Decoder
	out bytes.Buffer
}

func (e *refYamlEmitter) indent(col int) {
	for i := 0; i < col; i++ {
		e.out.WriteByte(' ')
	}
}

// value writes the value that starts with tok. col is the column of the
// value's own lines (its pairs, items or block text).
func (e *refYamlEmitter) value(tok json.Token, col int, pos refYamlPos) error {
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
		if strings.IndexByte(t, '\n') >= 0 && refLiteralSafe(t) {
			e.literal(t, col, pos)
			return nil
		}
		e.lead(pos)
		e.out.Write(refAppendYAMLString(e.out.AvailableBuffer(), t))
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
func (e *refYamlEmitter) lead(pos refYamlPos) {
	if pos == refPosAfterKey {
		e.out.WriteByte(' ')
	}
}

func (e *refYamlEmitter) scalar(text string, pos refYamlPos) {
	e.lead(pos)
	e.out.WriteString(text)
	e.out.WriteByte('\n')
}

func (e *refYamlEmitter) mapping(col int, pos refYamlPos) error {
	if !e.dec.More() {
		_, err := e.dec.Token() // '}'
		e.scalar("{}", pos)
		return err
	}
	if pos == refPosAfterKey {
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
		if !first || pos != refPosAfterDash {
			e.indent(col)
		}
		e.writeKey(key, col)
		if tok, err = e.dec.Token(); err != nil {
			return err
		}
		if err := e.value(tok, col+2, refPosAfterKey); err != nil {
			return err
		}
	}
	_, err := e.dec.Token() // '}'
	return err
}

// refMaxImplicitKey is the longest key written as "key:". YAML limits an
// implicit key to 1024 characters (yaml.v3 counts them after quoting);
// a longer one is written as an explicit key, "? key" then ":" on the next
// line, which has no limit.
const refMaxImplicitKey = 1000

func (e *refYamlEmitter) writeKey(key string, col int) {
	start := e.out.Len()
	e.out.Write(refAppendYAMLString(e.out.AvailableBuffer(), key))
	if e.out.Len()-start <= refMaxImplicitKey {
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

func (e *refYamlEmitter) sequence(col int, pos refYamlPos) error {
	if !e.dec.More() {
		_, err := e.dec.Token() // ']'
		e.scalar("[]", pos)
		return err
	}
	if pos == refPosAfterKey {
		e.out.WriteByte('\n')
	}
	for first := true; e.dec.More(); first = false {
		if !first || pos != refPosAfterDash {
			e.indent(col)
		}
		e.out.WriteString("- ")
		tok, err := e.dec.Token()
		if err != nil {
			return err
		}
		if err := e.value(tok, col+2, refPosAfterDash); err != nil {
			return err
		}
	}
	_, err := e.dec.Token() // ']'
	return err
}

// literal writes a multi-line string as a literal block scalar, with the
// chomping indicator that keeps its trailing newlines exact.
func (e *refYamlEmitter) literal(s string, col int, pos refYamlPos) {
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

// refLiteralSafe reports whether s reads back exactly from a literal block:
// some text (a block of empty lines reads back as ""), printable, no carriage
// returns, no line that starts the block with white space (that would change
// the detected indentation), no trailing white space on a line.
func refLiteralSafe(s string) bool {
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
			if r != '\t' && !refYamlPrintable(r) {
				return false
			}
		}
	}
	return true
}

// refYamlPrintable reports whether r may appear unescaped in a YAML scalar.
func refYamlPrintable(r rune) bool {
	switch {
	case r < 0x20, r == 0x7F, r >= 0x80 && r <= 0x9F:
		return false
	case r == 0x2028, r == 0x2029, r == 0xFEFF, r == 0xFFFE, r == 0xFFFF, r == utf8.RuneError:
		return false
	}
	return true
}

// refAppendYAMLString appends s as a plain scalar when that is unambiguous,
// else as a double-quoted scalar.
func refAppendYAMLString(dst []byte, s string) []byte {
	if refPlainSafe(s) {
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
		case r < 0x80 && !refYamlPrintable(r):
			dst = append(dst, '\\', 'x', hex[r>>4], hex[r&0xF])
		case !refYamlPrintable(r) && r <= 0xFFFF:
			dst = append(dst, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

// refPlainSafe reports whether s can be written as a plain scalar and read back
// as the same string by YAML 1.1 and 1.2 parsers alike. It errs on the side
// of quoting.
func refPlainSafe(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if refIsDottedVersion(s) {
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
		if r == '\t' || !refYamlPrintable(r) {
			return false
		}
	}
	return true
}

// refIsDottedVersion reports whether s is digits separated by two or more dots,
// like a version number ("3.0.3").
func refIsDottedVersion(s string) bool {
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

// TestJSONToYAMLMatchesReference converts every document under testdata
// (and GitHub's description when VIEWER_GITHUB_SPEC names it) with both
// writers and wants the same bytes.
func TestJSONToYAMLMatchesReference(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return err
	}))
	if g := os.Getenv("VIEWER_GITHUB_SPEC"); g != "" {
		files = append(files, g)
	}
	require.NotEmpty(t, files)
	checked := 0
	for _, f := range files {
		s, err := specdoc.Load(f, nil, "FilePathOrSpec", specdoc.UIVersion{5, 35, 0})
		if err != nil {
			continue // the refused documents of the tests
		}
		want, err := refJsonToYAML(s.JSON)
		require.NoError(t, err, f)
		got, err := transcode.JSONToYAML(s.JSON)
		require.NoError(t, err, f)
		assert.Equal(t, string(want), string(got), f)
		assert.Equal(t, len(got), cap(got), "%s: YAML in a buffer of its exact size", f)
		checked++
	}
	assert.Greater(t, checked, 5)
	for _, doc := range []string{`{"a":"\u00e9\ud83d\ude00 \ud800 x\u0007\"\\\/\b\f\n\r\t","b":[1,-2.5e+3,true,false,null,{},[]],"c":"l1\nl2\n\n"}`,
		"{\"k\":\"\xff\xfe bad UTF-8\",\"\xc3\":\"y\",\"ON\":\"No\",\"3.1.0\":\"1.2.3\"}", `[]`, `"x"`, `{"s":"\ud83d\u0041"}`} {
		want, err := refJsonToYAML([]byte(doc))
		require.NoError(t, err, doc)
		got, err := transcode.JSONToYAML([]byte(doc))
		require.NoError(t, err, doc)
		assert.Equal(t, string(want), string(got), doc)
	}
}

// FuzzJSONToYAMLMatchesReference compares both writers on any document
// Setup could write.
func FuzzJSONToYAMLMatchesReference(f *testing.F) {
	for _, s := range []string{`{"a":"y"}`, `{"a":["x",{"b":null}],"c":1.5e3}`, `{"s":"l1\nl2\n"}`, `{"":{"-":"- x"}}`, `{"u":"\ud800\udc00\ud800"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		canon, err := transcode.IndentJSON(transcode.Raw{Source: "f.json", Data: []byte(s)})
		if err != nil || len(canon) > 64<<10 {
			return
		}
		want, err := refJsonToYAML(canon)
		require.NoError(t, err)
		got, err := transcode.JSONToYAML(canon)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	})
}
