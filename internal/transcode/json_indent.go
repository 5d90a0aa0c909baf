package transcode

// indentValidJSON returns valid JSON re-indented exactly as json.Indent
// with no prefix and two spaces writes it, followed by a newline, in a
// slice of its exact size. json.Indent reserves twice the document in its
// buffer whatever the output's size (26 MB for GitHub's 13 MB description,
// which is already indented so); this counts the output first, then writes
// it, so re-indenting costs the output's size and nothing more. When src
// is already indented so and owned (the caller's to change: read from a
// file), the result is src itself with the newline appended, in place when
// its capacity allows (os.ReadFile leaves one byte spare), so that Setup
// holds one copy of a document published indented, as GitHub's is, not
// two. src must be valid JSON (json.Valid).
func indentValidJSON(src []byte, owned bool) []byte {
	count := indentOut{counting: true, src: src, same: true}
	indentInto(&count, src)
	if owned && count.same && count.n == len(src) {
		return append(src, '\n')
	}
	out := indentOut{buf: make([]byte, 0, count.n+1)}
	indentInto(&out, src)
	return append(out.buf, '\n')
}

// indentOut receives the indented bytes, or only counts them; when
// counting, it also checks whether they are the same as src's so far.
type indentOut struct {
	counting bool
	n        int
	buf      []byte
	src      []byte
	same     bool
}

// compare notes whether b is what src holds at the output's offset.
func (o *indentOut) compare(b []byte) {
	if o.same && (o.n+len(b) > len(o.src) || string(o.src[o.n:o.n+len(b)]) != string(b)) {
		o.same = false
	}
}

func (o *indentOut) bytes(b []byte) {
	if o.counting {
		o.compare(b)
		o.n += len(b)
		return
	}
	o.buf = append(o.buf, b...)
}

func (o *indentOut) byte(c byte) {
	if o.counting {
		if o.same && (o.n >= len(o.src) || o.src[o.n] != c) {
			o.same = false
		}
		o.n++
		return
	}
	o.buf = append(o.buf, c)
}

func (o *indentOut) newline(depth int) {
	if o.counting {
		if o.same {
			end := o.n + 1 + 2*depth
			if end > len(o.src) || o.src[o.n] != '\n' {
				o.same = false
			} else {
				for _, c := range o.src[o.n+1 : end] {
					if c != ' ' {
						o.same = false
						break
					}
				}
			}
		}
		o.n += 1 + 2*depth
		return
	}
	o.buf = append(o.buf, '\n')
	for range depth {
		o.buf = append(o.buf, ' ', ' ')
	}
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// indentInto writes valid JSON src as json.Indent does: white space before
// the value and between tokens dropped, white space after the value kept,
// a newline and two spaces per level after "{", "[" and ",", ": " after a
// key, and "{}" and "[]" for empty ones.
func indentInto(o *indentOut, src []byte) {
	i := 0
	for i < len(src) && isJSONSpace(src[i]) {
		i++
	}
	depth := 0          // indentation level
	open := 0           // containers open
	needIndent := false // an opened "{" or "[" whose first newline waits: "{}" and "[]" get none
	for i < len(src) {
		c := src[i]
		if isJSONSpace(c) {
			i++
			continue
		}
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			o.newline(depth)
		}
		switch c {
		case '"':
			end := i + 1
			for src[end] != '"' {
				if src[end] == '\\' {
					end++
				}
				end++
			}
			o.bytes(src[i : end+1])
			i = end + 1
		case '{', '[':
			needIndent = true
			open++
			o.byte(c)
			i++
		case ',':
			o.byte(c)
			o.newline(depth)
			i++
		case ':':
			o.byte(':')
			o.byte(' ')
			i++
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth--
				o.newline(depth)
			}
			open--
			o.byte(c)
			i++
		default: // a number, true, false or null
			end := i + 1
			for end < len(src) && !isJSONSpace(src[end]) && src[end] != ',' && src[end] != '}' && src[end] != ']' {
				end++
			}
			o.bytes(src[i:end])
			i = end
		}
		if open == 0 {
			o.bytes(src[i:]) // white space after the value: kept as it is
			return
		}
	}
}
