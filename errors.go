package viewer

import (
	"errors"
	"fmt"
)

// Sentinel errors returned (wrapped) by [OpenapiViewerRouter.Setup].
var (
	// ErrAlreadySetup is returned by a second call to Setup after one that
	// succeeded.
	ErrAlreadySetup = errors.New("viewer: Setup already called")
	// ErrInvalidConfig is wrapped by every error about a Config field.
	ErrInvalidConfig = errors.New("viewer: invalid config")
	// ErrInvalidSpec is wrapped by every *SpecError: the OpenAPI document
	// could not be read, parsed or accepted.
	ErrInvalidSpec = errors.New("viewer: invalid OpenAPI document")
)

// SpecError describes a problem with an OpenAPI document: where it is
// (Source, and Line when known) and what it is (Err). It matches
// [ErrInvalidSpec] with errors.Is, and also whatever Err wraps (for example
// fs.ErrNotExist for a missing file).
type SpecError struct {
	// Source names the document: the file path, or "FilePathOrSpec" /
	// "Specs[i]" for a document given as bytes or as an object.
	Source string
	// Line is the 1-based line of the problem, or 0 when unknown.
	Line int
	// Err is the problem.
	Err error
}

func (e *SpecError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("viewer: %s:%d: %v", e.Source, e.Line, e.Err)
	}
	return fmt.Sprintf("viewer: %s: %v", e.Source, e.Err)
}

// Unwrap returns ErrInvalidSpec and the underlying problem.
func (e *SpecError) Unwrap() []error { return []error{ErrInvalidSpec, e.Err} }

func configErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
}
