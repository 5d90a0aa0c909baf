package viewer

// indentValidJSON returns valid JSON re-indented exactly as json.Indent
// with no prefix and two spaces writes it, followed by a newline, in a
// slice of its exact size. json.Indent reserves twice the document in its
// buffer whatever the output's size (26 MB for GitHub's 13 MB description,
// which is already indented so); this counts the output first, then writes
// it, so re-indenting costs the output's size and nothing more. src must be
// valid JSON (json.Valid).
func indentValidJSON(src []byte) []byte {
	var count indentOut
	count.counting = true
	indentInto(&count, src)
	out := indentOut{buf: make([]byte, 0, count.n+1)}
	indentInto(&out, src)
	return append(out.buf, '\n')
}

// indentOut receives the indented bytes, or only counts them.
type indentOut struct {
	counting bool
	n        int
	buf      []byte
}

func (o *indentOut) bytes(b []byte) {
	if o.counting {
		o.n += len(b)
		return
	}
	o.buf = append(o.buf, b...)
}

func (o *indentOut) byte(c byte) {
	if o.counting {
		o.n++
		return
	}
	o.buf = append(o.buf, c)
}

func (o *indentOut) newline(depth int) {
	if o.counting {
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
