package storekit

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// Syntax is how a database spells what the shared SQL text of this
// package leaves open. That text is written once, in the SQL both
// databases speak, with:
//
//   - numbered placeholders ?1, ?2, …: SQLite reads them as they are,
//     PostgreSQL as $1, $2, …;
//   - locking clauses in braces, such as {FOR UPDATE} or
//     {FOR UPDATE OF d SKIP LOCKED}: kept by a database whose reads in a
//     write transaction lock rows (PostgreSQL), dropped by one whose write
//     transactions run one at a time (SQLite);
//   - list parameters {texts ?n} and {ints ?n}, a subquery of the list's
//     elements (pass the list through [Syntax.List]): SQLite reads a JSON
//     array with json_each, PostgreSQL unnests an array.
type Syntax struct {
	// Dollar writes placeholders as $n; else ?n.
	Dollar bool
	// Locks keeps the locking clauses; else they are dropped.
	Locks bool
	// JSONLists passes list parameters as JSON arrays read with
	// json_each; else as arrays that unnest reads.
	JSONLists bool
}

var (
	// braced matches the {…} parts of the shared SQL text.
	braced = regexp.MustCompile(`\{([^{}]*)\}`)
	// numbered matches a numbered placeholder ?n.
	numbered = regexp.MustCompile(`\?([0-9]+)`)
)

// Render returns q in the database's SQL.
func (s Syntax) Render(q string) string {
	q = braced.ReplaceAllStringFunc(q, func(m string) string {
		in := m[1 : len(m)-1]
		kind, param, _ := strings.Cut(in, " ")
		switch {
		case strings.HasPrefix(in, "FOR UPDATE"):
			if s.Locks {
				return in
			}
			return ""
		case s.JSONLists && (kind == "texts" || kind == "ints"):
			return "SELECT value FROM json_each(" + param + ")"
		case kind == "texts":
			return "SELECT unnest(CAST(" + param + " AS text[]))"
		case kind == "ints":
			return "SELECT unnest(CAST(" + param + " AS bigint[]))"
		}
		panic("storekit: unknown {" + in + "} in the SQL text") // a mistake in this package's text
	})
	if s.Dollar {
		q = numbered.ReplaceAllString(q, "$$$1")
	}
	return q
}

// Placeholder returns the n-th placeholder (from 1): $n or ?n.
func (s Syntax) Placeholder(n int) string {
	if s.Dollar {
		return "$" + strconv.Itoa(n)
	}
	return "?" + strconv.Itoa(n)
}

// List returns the parameter that a {texts ?n} or {ints ?n} of the SQL
// text reads as v's elements (v a []string or []int64): a JSON array, or
// v itself.
func (s Syntax) List(v any) any {
	if !s.JSONLists {
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic("storekit: a list parameter must be []string or []int64: " + err.Error()) // a mistake of this package
	}
	if string(b) == "null" {
		return "[]"
	}
	return string(b)
}
