package exporttask

// NewValidationError returns a ValidationError listing problems, for code
// that refuses a request outside Validate (a catalog lookup, an exporter's
// parameters): the server answers it as it does Validate's.
func NewValidationError(problems ...FieldError) *ValidationError {
	return &ValidationError{Problems: append([]FieldError(nil), problems...)}
}
