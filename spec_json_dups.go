package viewer

import (
	"encoding/json"
	"fmt"
)

// checkJSONKeys refuses a JSON document in which an object has the same
// key twice: parsers disagree on which value wins (encoding/json takes the
// last, others the first), and no YAML can hold both. data must already be
// valid JSON; it is scanned once, without building values, and only the
// keys of the objects open at a time are held.
func checkJSONKeys(data []byte, source string) error {
	type object struct {
		keys map[string]int // key -> line of its first occurrence
	}
	var (
		stack     []*object // nil entries are arrays
		line      = 1
		expectKey bool
	)
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '{':
			stack = append(stack, &object{})
			expectKey = true
		case '[':
			stack = append(stack, nil)
			expectKey = false
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1] != nil
		case '"':
			start := i
			escaped := false
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					escaped = true
					i++
				}
			}
			if !expectKey {
				continue
			}
			expectKey = false
			key := string(data[start+1 : i])
			if escaped {
				if err := json.Unmarshal(data[start:i+1], &key); err != nil {
					return &SpecError{Source: source, Line: line, Err: fmt.Errorf("invalid JSON string: %w", err)}
				}
			}
			obj := stack[len(stack)-1]
			if first, dup := obj.keys[key]; dup {
				return &SpecError{Source: source, Line: line,
					Err: fmt.Errorf("duplicate key %q (first at line %d): parsers disagree on which value wins", key, first)}
			}
			if obj.keys == nil {
				obj.keys = map[string]int{}
			}
			obj.keys[key] = line
		}
	}
	return nil
}
