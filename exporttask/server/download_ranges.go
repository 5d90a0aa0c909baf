package server

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// MaxRanges is the most byte ranges one download request may ask for. A
// Range header with more is answered 416: a client that wants more pieces
// asks in several requests, and one header cannot make the server write
// many times the file (overlapping or tiny ranges each carry a part
// header).
const MaxRanges = 8

// byteRange is a satisfiable range of a file: length bytes from start.
type byteRange struct {
	start, length int64
}

// contentRange is the Content-Range value of r in a file of size bytes.
func (r byteRange) contentRange(size int64) string {
	return "bytes " + strconv.FormatInt(r.start, 10) + "-" + strconv.FormatInt(r.start+r.length-1, 10) +
		"/" + strconv.FormatInt(size, 10)
}

// rangeError says why a Range header is answered 416.
type rangeError struct{ msg string }

func (e *rangeError) Error() string { return e.msg }

// parseRange reads a Range header (RFC 9110 §14.1.2) for a file of size
// bytes. It returns nil ranges when the header does not apply: it is empty,
// its unit is not bytes, or its ranges together would send more than the
// whole file (then the whole file is sent, 200). It returns a *rangeError
// (416) for a malformed range (bytes=10-5, bytes=a-), more than [MaxRanges]
// ranges, or ranges none of which overlaps the file (bytes=-0, or a first
// byte past the end). Ranges that do not overlap the file are dropped when
// another one does.
func parseRange(h string, size int64) ([]byteRange, error) {
	if h == "" {
		return nil, nil
	}
	unit, set, ok := strings.Cut(h, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(unit), "bytes") {
		return nil, nil // another unit, or not a range at all: ignored
	}
	specs := strings.Split(set, ",")
	n := 0
	for _, sp := range specs {
		if strings.TrimSpace(sp) != "" {
			n++
		}
	}
	if n == 0 {
		return nil, &rangeError{"the Range header names no range"}
	}
	if n > MaxRanges {
		return nil, &rangeError{"the Range header asks for " + strconv.Itoa(n) + " ranges; at most " +
			strconv.Itoa(MaxRanges) + " are served per request"}
	}
	var out []byteRange
	var sum int64 // bytes of the ranges so far, while at most size
	whole := false
	for _, sp := range specs {
		sp = strings.TrimSpace(sp)
		if sp == "" {
			continue
		}
		r, ok, err := parseSpec(sp, size)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		out = append(out, r)
		if r.length > size-sum {
			whole = true // written without overflow: sum + r.length > size
		} else {
			sum += r.length
		}
	}
	if len(out) == 0 {
		return nil, &rangeError{"no range of the Range header overlaps the file's " + strconv.FormatInt(size, 10) + " bytes"}
	}
	if whole {
		return nil, nil // overlapping ranges: the whole file costs less
	}
	return out, nil
}

// parseSpec reads one range-spec: first-last, first-, or -suffix. ok is
// false for a well-formed range that does not overlap the file.
func parseSpec(sp string, size int64) (r byteRange, ok bool, err error) {
	first, last, found := strings.Cut(sp, "-")
	if !found {
		return byteRange{}, false, &rangeError{"the range " + strconv.Quote(sp) + " has no '-'"}
	}
	first, last = strings.TrimSpace(first), strings.TrimSpace(last)
	if first == "" {
		// A suffix: the last n bytes. -0 asks for nothing.
		n, err := parsePos(last)
		if err != nil {
			return byteRange{}, false, &rangeError{"the range " + strconv.Quote(sp) + " is not a byte range"}
		}
		if n == 0 || size == 0 {
			return byteRange{}, false, nil
		}
		n = min(n, size)
		return byteRange{start: size - n, length: n}, true, nil
	}
	start, err := parsePos(first)
	if err != nil {
		return byteRange{}, false, &rangeError{"the range " + strconv.Quote(sp) + " is not a byte range"}
	}
	end := int64(-1) // open: to the end
	if last != "" {
		if end, err = parsePos(last); err != nil {
			return byteRange{}, false, &rangeError{"the range " + strconv.Quote(sp) + " is not a byte range"}
		}
		if end < start {
			return byteRange{}, false, &rangeError{"the range " + strconv.Quote(sp) + " ends before it starts"}
		}
	}
	if start >= size {
		return byteRange{}, false, nil
	}
	if end < 0 || end >= size {
		end = size - 1
	}
	return byteRange{start: start, length: end - start + 1}, true, nil
}

// errNotDigits is parsePos's error for anything but decimal digits.
var errNotDigits = errors.New("not a decimal number")

// parsePos reads a byte position: decimal digits only (no sign, no space).
// A number too large for int64 is read as the largest int64, which is past
// the end of any file.
func parsePos(s string) (int64, error) {
	if s == "" {
		return 0, errNotDigits
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errNotDigits
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64, nil // only digits: the error is ErrRange
	}
	return n, nil
}
