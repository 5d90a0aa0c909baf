// Package recordid reads a catalog record id: a UUID in the 8-4-4-4-12
// hexadecimal form of RFC 9562, in either case, whose canonical form is in
// lower case. The request validation, its decoding and the catalog all
// read ids with [Canonical], so they agree on what an id is.
package recordid

import "strings"

// Canonical returns id in lower case and true when it is a UUID in the
// 8-4-4-4-12 hexadecimal form (either case), else "" and false. Version
// and variant are not checked.
func Canonical(id string) (string, bool) {
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
