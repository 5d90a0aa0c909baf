package exporttask

// NewValidationError returns a [ValidationError] listing problems, for code
// outside this package (a catalog lookup, an exporter checking its
// parameters) that refuses a request: the server answers it with 400 and
// each problem's pointer, as it does for the checks of
// [CreateRequest.Validate].
func NewValidationError(problems ...FieldError) *ValidationError {
	return &ValidationError{Problems: append([]FieldError(nil), problems...)}
}
