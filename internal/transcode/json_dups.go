package transcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
)

// checkJSONKeys refuses a JSON document in which an object has the same
// key twice: parsers disagree on which value wins (encoding/json takes the
// last, others the first), and no YAML can hold both. data must already be
// valid JSON. It is scanned once, without building values: the keys of the
// objects open at a time are held as hashes with their offsets (the bytes
// are compared when two hashes meet), and the maps are reused, so GitHub's
// 13 MB description costs a few allocations per nesting level.
func checkJSONKeys(data []byte, source string) error {
	k := keyChecker{data: data, seed: maphash.MakeSeed()}
	return k.run(source)
}

// keyAt is where a key was seen: its quoted text in data, and its line.
type keyAt struct {
	start, end int // data[start:end] is the key with its quotes
	line       int
}

type keyChecker struct {
	data  []byte
	seed  maphash.Seed
	stack []map[uint64]keyAt // nil entries are arrays
	free  []map[uint64]keyAt
}

func (k *keyChecker) push(object bool) {
	if !object {
		k.stack = append(k.stack, nil)
		return
	}
	var m map[uint64]keyAt
	if n := len(k.free); n > 0 {
		m, k.free = k.free[n-1], k.free[:n-1]
	} else {
		m = map[uint64]keyAt{}
	}
	k.stack = append(k.stack, m)
}

func (k *keyChecker) pop() {
	m := k.stack[len(k.stack)-1]
	k.stack = k.stack[:len(k.stack)-1]
	if m != nil {
		clear(m)
		k.free = append(k.free, m)
	}
}

func (k *keyChecker) run(source string) error {
	data := k.data
	line, expectKey := 1, false
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			line++
		case '{':
			k.push(true)
			expectKey = true
		case '[':
			k.push(false)
			expectKey = false
		case '}', ']':
			k.pop()
			expectKey = false
		case ',':
			expectKey = len(k.stack) > 0 && k.stack[len(k.stack)-1] != nil
		case '"':
			start := i
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if !expectKey {
				continue
			}
			expectKey = false
			at := keyAt{start: start, end: i + 1, line: line}
			if err := k.add(at, source); err != nil {
				return err
			}
		}
	}
	return nil
}

// add records a key in the innermost object, or reports it as a duplicate.
func (k *keyChecker) add(at keyAt, source string) error {
	key, err := k.text(at)
	if err != nil {
		return &Error{Source: source, Line: at.line, Err: fmt.Errorf("invalid JSON string: %w", err)}
	}
	h := maphash.Bytes(k.seed, key)
	obj := k.stack[len(k.stack)-1]
	for {
		prev, seen := obj[h]
		if !seen {
			obj[h] = at
			return nil
		}
		prevKey, _ := k.text(prev)
		if bytes.Equal(prevKey, key) {
			return &Error{Source: source, Line: at.line,
				Err: fmt.Errorf("duplicate key %q (first at line %d): parsers disagree on which value wins", key, prev.line)}
		}
		h++ // two keys with one hash: probe the next slot
	}
}

// text returns a key without its quotes, unescaped when it has escapes.
func (k *keyChecker) text(at keyAt) ([]byte, error) {
	raw := k.data[at.start:at.end]
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return []byte(s), nil
}
