package exporttask

import (
	"fmt"
	"strconv"
	"strings"
)

// FieldError is one problem with a request: what, in plain words, and
// where: Pointer, a JSON Pointer (RFC 6901) into the body ("" for all of
// it), or, when set, Parameter, the name of a path, query or header
// parameter. Its JSON has exactly one of pointer and parameter.
type FieldError struct {
	Pointer   string `json:"pointer"`
	Parameter string `json:"parameter,omitempty"`
	Message   string `json:"message"`
}

// ValidationError lists everything wrong with a request, in body order,
// at most [MaxProblems] one by one (a last entry counts the rest). The
// server answers it 400 with [ValidationError.Problem].
type ValidationError struct {
	Problems []FieldError
}

// Error sums up the problems, naming the first few.
func (e *ValidationError) Error() string {
	const shown = 3
	var b strings.Builder
	switch len(e.Problems) {
	case 0:
		return "exporttask: invalid request"
	case 1:
		b.WriteString("exporttask: invalid request: ")
	default:
		fmt.Fprintf(&b, "exporttask: invalid request (%d problems): ", len(e.Problems))
	}
	for i, p := range e.Problems {
		if i == shown {
			b.WriteString("; …")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if p.Pointer != "" {
			b.WriteString(p.Pointer)
			b.WriteString(": ")
		}
		b.WriteString(p.Message)
	}
	return b.String()
}

// problems collects FieldErrors while a request is checked.
type problems struct {
	list    []FieldError
	dropped int
	// skip lists pointers whose problems are not recorded, nor counted:
	// those of values already reported (see DecodeCreateRequest).
	skip map[string]bool
}

// add records a problem at ptr.
func (p *problems) add(ptr, format string, args ...any) {
	if len(p.skip) > 0 && underAny(ptr, p.skip) {
		return
	}
	if len(p.list) >= MaxProblems {
		p.dropped++
		return
	}
	p.list = append(p.list, FieldError{Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

// err returns nil when nothing was recorded, else a *ValidationError.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	list := p.list
	if p.dropped > 0 {
		list = append(list, FieldError{Message: fmt.Sprintf("%d more problems are not listed", p.dropped)})
	}
	return &ValidationError{Problems: list}
}

// child returns the JSON Pointer of member key under ptr, escaping "~" and
// "/" as RFC 6901 says.
func child(ptr, key string) string {
	if strings.ContainsAny(key, "~/") {
		key = strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
	}
	return ptr + "/" + key
}

// index returns the JSON Pointer of array element i under ptr.
func index(ptr string, i int) string {
	return ptr + "/" + strconv.Itoa(i)
}
