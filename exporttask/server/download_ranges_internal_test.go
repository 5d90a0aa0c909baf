package server

import (
	"errors"
	"testing"
)

// FuzzParseRange: parseRange never panics, and what it returns can be
// served: at most MaxRanges ranges, each non-empty and inside the file,
// together no longer than the file; or a *rangeError.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"bytes=0-0", "bytes=-0", "bytes=10-5", "bytes=-5", "bytes=5-", "bytes=0-1,3-4,-2",
		"bytes= 1 - 2 ,, 4-", "items=0-1", "bytes=99999999999999999999-", "bytes=0-99999999999999999999", "bytes=", "bytes=,"} {
		f.Add(s, int64(100))
	}
	f.Add("bytes=0-", int64(0))
	f.Fuzz(func(t *testing.T, h string, size int64) {
		if size < 0 {
			size = -size
		}
		if size < 0 { // math.MinInt64
			return
		}
		ranges, err := parseRange(h, size)
		if err != nil {
			var re *rangeError
			if !errors.As(err, &re) {
				t.Fatalf("parseRange(%q, %d): %T %v", h, size, err, err)
			}
			return
		}
		if len(ranges) > MaxRanges {
			t.Fatalf("parseRange(%q, %d): %d ranges", h, size, len(ranges))
		}
		var sum int64
		for _, r := range ranges {
			if r.start < 0 || r.length <= 0 || r.start+r.length > size {
				t.Fatalf("parseRange(%q, %d): range %+v outside the file", h, size, r)
			}
			sum += r.length
		}
		if sum > size {
			t.Fatalf("parseRange(%q, %d): %d bytes in all", h, size, sum)
		}
	})
}
