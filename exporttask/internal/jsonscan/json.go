package jsonscan

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// Edit replaces Data[Start:End] with Repl: see [Apply].
type Edit struct {
	Start, End int64
	Repl       string
}

// Apply returns data with the edits made, in the order of their starts;
// an edit that starts inside one already made is left out. It sorts edits
// in place, and returns data itself when there are none.
func Apply(data []byte, edits []Edit) []byte {
	if len(edits) == 0 {
		return data
	}
	// A geometry's coordinates are edited after its other members.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	out := make([]byte, 0, len(data))
	at := int64(0)
	for _, e := range edits {
		if e.Start < at {
			continue // inside an edit already made
		}
		out = append(out, data[at:e.Start]...)
		out = append(out, e.Repl...)
		at = e.End
	}
	return append(out, data[at:]...)
}

// ValueStart returns the offset of the first byte of the value or member
// name that follows offset off in data, past white space and separators.
func ValueStart(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}

// IsDelim reports whether tok is the delimiter d.
func IsDelim(tok json.Token, d json.Delim) bool {
	v, ok := tok.(json.Delim)
	return ok && v == d
}

// Describe names the JSON type of the value starting with tok: "null", "a
// boolean", "a number", "a string", "an object" or "an array".
func Describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	}
	return "an unknown value"
}

// LineColumn returns the 1-based line and column of the byte at offset in
// data (json.SyntaxError.Offset: the decoder has read that many bytes when
// it stops, so the byte that broke the syntax is at or just before it).
// Columns count bytes, as an editor's byte column does.
func LineColumn(data []byte, offset int64) (line, col int) {
	end := min(max(offset, 0), int64(len(data)))
	before := data[:end]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(end) - bytes.LastIndexByte(before, '\n')
	return line, col
}
