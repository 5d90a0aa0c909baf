package exporttask

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
)

// unknownMember is the message for a member name the schema does not
// define: it suggests the closest defined name, or lists them all.
func unknownMember(name string, defined []member) string {
	names := make([]string, len(defined))
	for i, m := range defined {
		names[i] = m.name
	}
	if best, ok := closest(name, names); ok {
		return fmt.Sprintf("unknown member %s; did you mean %q?", quoted.Short(name), best)
	}
	return fmt.Sprintf("unknown member %s; the members are %s", quoted.Short(name), strings.Join(names, ", "))
}

// closest returns the name in names most like s: one equal to it but for
// case, else one within a small edit distance (a third of the length, at
// most 2), the first such in names on a tie.
func closest(s string, names []string) (string, bool) {
	for _, n := range names {
		if strings.EqualFold(s, n) {
			return n, true
		}
	}
	if utf8.RuneCountInString(s) > 64 {
		return "", false
	}
	best, bestDist := "", 3
	for _, n := range names {
		limit := min(2, utf8.RuneCountInString(n)/3)
		if d := editDistance(s, n); d <= limit && d < bestDist {
			best, bestDist = n, d
		}
	}
	return best, best != ""
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
