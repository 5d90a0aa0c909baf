package transcode

import (
	"errors"
	"fmt"
)

// ErrInvalidSpec is wrapped by every *Error. It is the root package's
// ErrInvalidSpec.
var ErrInvalidSpec = errors.New("viewer: invalid OpenAPI document")

// Error is a problem with a document: where it is (Source, and Line when
// known) and what it is (Err). It is the root package's SpecError: the
// viewer has this one type for a problem with a document, from whichever
// package finds it (transcode, bundle, specdoc).
type Error struct {
	// Source names the document: the file path, or the config field of a
	// document given as bytes or as an object.
	Source string
	// Line is the 1-based line of the problem, or 0 when unknown.
	Line int
	// Err is the problem.
	Err error
}

// Error returns "viewer: Source:Line: Err", or without the line when it
// is unknown.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("viewer: %s:%d: %v", e.Source, e.Line, e.Err)
	}
	return fmt.Sprintf("viewer: %s: %v", e.Source, e.Err)
}

// Unwrap returns ErrInvalidSpec and the underlying problem.
func (e *Error) Unwrap() []error { return []error{ErrInvalidSpec, e.Err} }
