package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Source is what a structural pass reads a body with: the methods of
// json.Decoder it uses. *json.Decoder is one (see [NewDecoder]); [Fast] is
// another.
type Source interface {
	Token() (json.Token, error)
	More() bool
	InputOffset() int64
	Decode(v any) error
}

// errNotFast is Fast's answer to anything it does not read as
// json.Decoder would for sure: a syntax error, a string with escapes or
// non-ASCII bytes it cannot decode alone, a value it cannot decode into.
// The structural pass then starts over with a json.Decoder.
var errNotFast = errors.New("jsonscan: not for the fast tokenizer")

// Fast reads the tokens of well-formed JSON in a byte slice, giving
// exactly what a json.Decoder with UseNumber gives (the same tokens, the
// same input offsets), more cheaply: it neither copies the input nor runs
// a state machine per byte. What it cannot read so, it refuses with an
// error rather than guess (see [Fast.Refused]); the caller then starts
// over with a json.Decoder.
type Fast struct {
	data []byte
	pos  int
	// stack holds, per open container, its opening bracket and what
	// comes next in it (see the after* constants); the top level's state
	// is stack[0].
	stack []byte
	// refused is set once Fast answered errNotFast: what the pass made of
	// the body since is not to be used.
	refused bool
}

// Refused reports whether f refused to read on: what a pass made of the
// body since is not to be used.
func (f *Fast) Refused() bool { return f.refused }

// refuse notes and returns errNotFast.
func (f *Fast) refuse() error {
	f.refused = true
	return errNotFast
}

// What comes next in a container (or at the top level).
const (
	afterOpen   byte = iota // just opened: an element, a key, or the end
	afterKey                // an object key: the colon
	afterColon              // a colon: the member's value
	afterValue              // a member or element: a comma or the end
	afterComma              // a comma: an element or a key
	topLevel                // the top level: one value
	topLevelEnd             // the top level value was read: only white space
)

// maxFastDepth is json.Decoder's nesting limit; past it, the decoder's own
// error is wanted.
const maxFastDepth = 10000

// NewFast returns a Fast that reads data.
func NewFast(data []byte) *Fast {
	return &Fast{data: data, stack: append(make([]byte, 0, 16), topLevel)}
}

// NewDecoder returns a json.Decoder of data that reads numbers as
// json.Number, as Fast does.
func NewDecoder(data []byte) *json.Decoder {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec
}

// InputOffset returns the offset in the data after the last token read, as
// json.Decoder.InputOffset does.
func (f *Fast) InputOffset() int64 { return int64(f.pos) }

// skipSpace moves past JSON white space, as json.Decoder does: white
// space at the end of the input is not passed (the decoder's offset stays
// before it). It reports whether a byte other than white space follows.
func (f *Fast) skipSpace() bool {
	for i := f.pos; i < len(f.data); i++ {
		switch f.data[i] {
		case ' ', '\t', '\r', '\n':
		default:
			f.pos = i
			return true
		}
	}
	return false
}

// More reports whether the current array or object has another element,
// as json.Decoder.More does (it moves past white space).
func (f *Fast) More() bool {
	return f.skipSpace() && f.data[f.pos] != ']' && f.data[f.pos] != '}'
}

// state is what comes next in the innermost container. The stack holds,
// per open container, its opening bracket and its state.
func (f *Fast) state() byte { return f.stack[len(f.stack)-1] }

func (f *Fast) setState(s byte) { f.stack[len(f.stack)-1] = s }

// inObject reports whether the innermost open container is an object.
func (f *Fast) inObject() bool { return len(f.stack) > 1 && f.stack[len(f.stack)-2] == '{' }

// valueNext reports whether a value may come next: at the top level,
// after an object member's colon, or as an array's element.
func (f *Fast) valueNext() bool {
	switch f.state() {
	case topLevel, afterColon:
		return true
	case afterOpen, afterComma:
		return !f.inObject()
	}
	return false
}

// Token returns the next token, as json.Decoder.Token does.
func (f *Fast) Token() (json.Token, error) {
	for {
		if !f.skipSpace() {
			if f.state() == topLevelEnd {
				return nil, io.EOF
			}
			return nil, f.refuse()
		}
		c := f.data[f.pos]
		switch c {
		case ',':
			if f.state() != afterValue || len(f.stack) == 1 {
				return nil, f.refuse()
			}
			f.pos++
			f.setState(afterComma)
			continue
		case ':':
			if f.state() != afterKey {
				return nil, f.refuse()
			}
			f.pos++
			f.setState(afterColon)
			continue
		case '}', ']':
			open := byte('{')
			if c == ']' {
				open = '['
			}
			if len(f.stack) < 3 || f.stack[len(f.stack)-2] != open ||
				(f.state() != afterOpen && f.state() != afterValue) {
				return nil, f.refuse()
			}
			f.pos++
			f.stack = f.stack[:len(f.stack)-2]
			f.valueDone()
			return json.Delim(c), nil
		}
		if f.inObject() && (f.state() == afterOpen || f.state() == afterComma) {
			if c != '"' {
				return nil, f.refuse()
			}
			key, err := f.str()
			if err != nil {
				return nil, err
			}
			f.setState(afterKey)
			return key, nil
		}
		if !f.valueNext() {
			return nil, f.refuse()
		}
		switch c {
		case '{', '[':
			if len(f.stack)/2 >= maxFastDepth {
				return nil, f.refuse()
			}
			f.pos++
			f.stack = append(f.stack, c, afterOpen)
			return json.Delim(c), nil
		case '"':
			s, err := f.str()
			if err != nil {
				return nil, err
			}
			f.valueDone()
			return s, nil
		case 't', 'f', 'n':
			return f.literal()
		}
		n, err := f.number()
		if err != nil {
			return nil, err
		}
		f.valueDone()
		return n, nil
	}
}

// valueDone notes that a whole value was read in the current container.
func (f *Fast) valueDone() {
	if len(f.stack) == 1 {
		f.stack[0] = topLevelEnd
		return
	}
	f.setState(afterValue)
}

// str reads the string at f.pos. A string with escapes or bytes outside
// ASCII is decoded by encoding/json, as the decoder would (invalid UTF-8
// becomes U+FFFD).
func (f *Fast) str() (string, error) {
	start := f.pos
	plain := true
	i := start + 1
	for ; i < len(f.data); i++ {
		c := f.data[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			i++ // the escaped byte cannot end the string
			continue
		}
		if c < 0x20 {
			return "", f.refuse()
		}
		if c >= 0x80 {
			plain = false
		}
	}
	if i >= len(f.data) {
		return "", f.refuse()
	}
	f.pos = i + 1
	if plain {
		return string(f.data[start+1 : i]), nil
	}
	var s string
	if err := json.Unmarshal(f.data[start:f.pos], &s); err != nil {
		return "", f.refuse()
	}
	return s, nil
}

// literal reads true, false or null.
func (f *Fast) literal() (json.Token, error) {
	for _, l := range [...]struct {
		text string
		tok  json.Token
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(f.data)-f.pos >= len(l.text) && string(f.data[f.pos:f.pos+len(l.text)]) == l.text {
			f.pos += len(l.text)
			f.valueDone()
			return l.tok, nil
		}
	}
	return nil, f.refuse()
}

// number reads a number in JSON's grammar and returns its text.
func (f *Fast) number() (json.Number, error) {
	d, i := f.data, f.pos
	digits := func() bool {
		s := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > s
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return "", f.refuse()
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return "", f.refuse()
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return "", f.refuse()
		}
	}
	n := json.Number(d[f.pos:i])
	f.pos = i
	return n, nil
}

// Decode reads the next value into v, which must be a *json.RawMessage
// (the structural pass keeps coordinates raw), as json.Decoder.Decode
// does: past a pending colon or comma, without the white space before it.
func (f *Fast) Decode(v any) error {
	raw, ok := v.(*json.RawMessage)
	if !ok {
		return f.refuse()
	}
	if f.skipSpace() {
		switch {
		case f.state() == afterKey && f.data[f.pos] == ':':
			f.pos++
			f.setState(afterColon)
		case f.state() == afterValue && !f.inObject() && len(f.stack) > 1 && f.data[f.pos] == ',':
			f.pos++
			f.setState(afterComma)
		}
	}
	if !f.valueNext() {
		return f.refuse()
	}
	if !f.skipSpace() {
		return f.refuse()
	}
	start := f.pos
	end, ok := valueEnd(f.data, start)
	if !ok || !json.Valid(f.data[start:end]) {
		return f.refuse()
	}
	*raw = append((*raw)[:0], f.data[start:end]...)
	f.pos = end
	f.valueDone()
	return nil
}

// valueEnd returns where the JSON value that starts at start ends: past
// its closing bracket, its closing quote, or its last byte. It only
// finds the end; json.Valid checks the value.
func valueEnd(d []byte, start int) (int, bool) {
	depth := 0
	for i := start; i < len(d); i++ {
		switch c := d[i]; c {
		case '"':
			i++
			for i < len(d) && d[i] != '"' {
				if d[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(d) {
				return 0, false
			}
			if depth == 0 {
				return i + 1, true
			}
		case '{', '[':
			depth++
		case ',', ' ', '\t', '\r', '\n', ':', '}', ']':
			if depth == 0 {
				return i, i > start
			}
			if c == '}' || c == ']' {
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
		default:
			if depth == 0 && i+1 == len(d) {
				return len(d), true
			}
		}
	}
	return 0, false
}
