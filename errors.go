package viewer

import (
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/internal/specdoc"
	"github.com/openapi-viewer/viewer/internal/transcode"
)

// Sentinel errors returned (wrapped) by [OpenapiViewerRouter.Setup].
var (
	// ErrAlreadySetup is returned by a second call to Setup after one that
	// succeeded.
	ErrAlreadySetup = errors.New("viewer: Setup already called")
	// ErrInvalidConfig is wrapped by every error about a Config field. Its
	// text is "viewer: invalid config".
	ErrInvalidConfig = specdoc.ErrInvalidConfig
	// ErrInvalidSpec is wrapped by every *SpecError: the OpenAPI document
	// could not be read, parsed or accepted. Its text is "viewer: invalid
	// OpenAPI document".
	ErrInvalidSpec = transcode.ErrInvalidSpec
)

// SpecError describes a problem with an OpenAPI document: where it is and
// what it is. Its fields are
//
//	Source string // the file path, or "FilePathOrSpec" / "Specs[i]" for a document given as bytes or as an object
//	Line   int    // the 1-based line of the problem, or 0 when unknown
//	Err    error  // the problem
//
// Its text is "viewer: Source:Line: Err", without ":Line" when the line is
// unknown. It matches [ErrInvalidSpec] with errors.Is, and also whatever
// Err wraps (for example fs.ErrNotExist for a missing file):
//
//	var se *viewer.SpecError
//	if errors.As(err, &se) {
//		log.Printf("%s, line %d: %v", se.Source, se.Line, se.Err)
//	}
type SpecError = transcode.Error

func configErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
}
