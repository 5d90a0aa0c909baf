package transcode

import (
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonScanner reads the tokens of a JSON document in place, for JSONToYAML.
// A string without escapes is a slice of the document; one with escapes is
// decoded into a buffer the scanner reuses, so reading a document makes no
// garbage per token. Strings decode as encoding/json decodes them (an
// invalid UTF-8 byte or a lone surrogate becomes U+FFFD). It checks the
// syntax it relies on, not all of JSON's: the documents it reads are the
// ones Setup wrote.
type jsonScanner struct {
	b   []byte
	i   int
	str []byte // the last string's value
	lit []byte // the last number's or literal's text
	buf []byte // decoded strings with escapes
}

var errJSONEnd = errors.New("unexpected end of JSON")

// next returns the kind of the next token, skipping white space, commas and
// colons: '{', '}', '[', ']', '"' (a string, in str), '0' (a number), 't',
// 'f' or 'n' (true, false, null; the number's or literal's text is in lit),
// or 0 at the end of the document.
func (s *jsonScanner) next() (byte, error) {
	s.skip()
	if s.i >= len(s.b) {
		return 0, nil
	}
	c := s.b[s.i]
	switch c {
	case '{', '}', '[', ']':
		s.i++
		return c, nil
	case '"':
		return '"', s.string()
	case 't', 'f', 'n':
		for _, word := range []string{"true", "false", "null"} {
			if word[0] == c {
				if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
					return 0, fmt.Errorf("invalid literal at offset %d", s.i)
				}
				s.lit = s.b[s.i : s.i+len(word)]
				s.i += len(word)
			}
		}
		return c, nil
	}
	if c == '-' || (c >= '0' && c <= '9') {
		start := s.i
		for s.i < len(s.b) && isNumberByte(s.b[s.i]) {
			s.i++
		}
		s.lit = s.b[start:s.i]
		return '0', nil
	}
	return 0, fmt.Errorf("invalid character %q at offset %d", c, s.i)
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// skip moves past white space, commas and colons.
func (s *jsonScanner) skip() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r', ',', ':':
			s.i++
		default:
			return
		}
	}
}

// atEnd reports whether the next token is the closing delimiter end, and
// consumes it if so.
func (s *jsonScanner) atEnd(end byte) bool {
	s.skip()
	if s.i < len(s.b) && s.b[s.i] == end {
		s.i++
		return true
	}
	return false
}

// string reads the string starting at s.i into s.str.
func (s *jsonScanner) string() error {
	start := s.i + 1
	plain := true
	i := start
	for ; i < len(s.b); i++ {
		c := s.b[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			i++ // the escaped byte cannot end the string
			continue
		}
		if c >= utf8.RuneSelf {
			plain = false
		}
	}
	if i >= len(s.b) {
		return errJSONEnd
	}
	s.i = i + 1
	raw := s.b[start:i]
	if plain || (utf8.Valid(raw) && !hasBackslash(raw)) {
		s.str = raw
		return nil
	}
	return s.decode(raw)
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// decode unescapes raw into s.buf and points s.str at it.
func (s *jsonScanner) decode(raw []byte) error {
	out := s.buf[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			if i+1 >= len(raw) {
				return errJSONEnd
			}
			i++
			switch raw[i] {
			case '"', '\\', '/':
				out = append(out, raw[i])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(raw[i+1:])
				if !ok {
					return fmt.Errorf("invalid \\u escape in a string at offset %d", s.i)
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2, ok2 := rune(-1), false
					if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
						r2, ok2 = hex4(raw[i+3:])
					}
					if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				return fmt.Errorf("invalid escape in a string at offset %d", s.i)
			}
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, raw[i:i+size]...)
			}
			i += size
		}
	}
	s.buf = out
	s.str = out
	return nil
}

// hex4 reads four hexadecimal digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
