package jsonscan

import (
	"unicode/utf8"
)

// InvalidText checks a JSON string as it is in a body, quotes included:
// its bytes must be UTF-8 (no invalid byte, no overlong form, no encoded
// surrogate: what utf8.DecodeRune refuses), and its \u escapes must not
// leave a surrogate unpaired (\ud800 alone, or \udc00 first). It returns
// what is wrong and its offset in raw, or "" when the string is sound.
func InvalidText(raw []byte) (string, int) {
	for i := 1; i < len(raw)-1; {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && raw[i+1] == 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return "", 0 // the decoder reports the bad escape
			}
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return "the escape " + string(raw[i:i+6]) + " is a low surrogate without a high one before it", i
			case r >= 0xD800 && r <= 0xDBFF:
				if lo, ok := hex4(raw, i+8); ok && raw[i+6] == '\\' && raw[i+7] == 'u' && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 12
					continue
				}
				return "the escape " + string(raw[i:i+6]) + " is a high surrogate without a low one after it", i
			}
			i += 6
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				return "the bytes are not a UTF-8 sequence (an invalid byte, an overlong form or an encoded surrogate)", i
			}
			i += size
		}
	}
	return "", 0
}

// hex4 reads the four hexadecimal digits at raw[i:i+4].
func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range raw[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
