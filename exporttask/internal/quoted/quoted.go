// Package quoted quotes what a client sent for an error message, cut so a
// long value cannot swell the message: see [Short]. The domain, the task
// stores' errors, the API's parameter parsing and the server's problems
// use it, so a value reads the same in each.
package quoted

import "strconv"

// Limit is how many runes of a value [Short] keeps.
const Limit = 64

// Short returns s as a Go string literal, cut to its first Limit runes
// followed by "…" when it is longer.
func Short(s string) string {
	if r := []rune(s); len(r) > Limit {
		return strconv.Quote(string(r[:Limit])) + "…"
	}
	return strconv.Quote(s)
}
