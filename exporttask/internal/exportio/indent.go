package exportio

// indent appends src, compact JSON as json.Marshal writes it, to dst:
// json.Indent's layout (two spaces a level, no prefix) with arrays of
// numbers on one line.
func indent(dst, src []byte) []byte {
	depth := 0
	open := false // after '[' or '{': the next value starts a line one level deeper
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != ']' && c != '}' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			j := stringEnd(src, i)
			dst = append(dst, src[i:j]...)
			i = j - 1
		case '[':
			if j, ok := numbersEnd(src, i); ok {
				for k := i; k < j; k++ {
					dst = append(dst, src[k])
					if src[k] == ',' {
						dst = append(dst, ' ')
					}
				}
				i = j - 1
				continue
			}
			open = true
			dst = append(dst, c)
		case '{':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case ']', '}':
			if open {
				open = false // an empty array or object: [] or {}
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd returns the index just past the string that starts at src[i].
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// numbersEnd reports whether the array starting at src[i] holds numbers
// only, at least one, and returns the index just past it.
func numbersEnd(src []byte, i int) (int, bool) {
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == ']':
			return j + 1, j > i+1
		case c == ',' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || c >= '0' && c <= '9':
		default:
			return 0, false
		}
	}
	return 0, false
}
