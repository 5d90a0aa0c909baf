package catalog

import "strings"

// canonicalID returns id in canonical lower case and true when it is a UUID
// in the 8-4-4-4-12 hexadecimal form, else "" and false.
func canonicalID(id string) (string, bool) {
	if len(id) != 36 {
		return "", false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return "", false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return "", false
			}
		}
	}
	return strings.ToLower(id), true
}
