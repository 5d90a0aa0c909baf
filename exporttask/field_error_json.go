package exporttask

import "encoding/json"

// MarshalJSON writes {"parameter", "message"} when e names a parameter and
// {"pointer", "message"} otherwise, so that a client reads exactly one of
// the two locations.
func (e FieldError) MarshalJSON() ([]byte, error) {
	if e.Parameter != "" {
		return json.Marshal(struct {
			Parameter string `json:"parameter"`
			Message   string `json:"message"`
		}{e.Parameter, e.Message})
	}
	return json.Marshal(struct {
		Pointer string `json:"pointer"`
		Message string `json:"message"`
	}{e.Pointer, e.Message})
}

// ParameterError returns the problem with the parameter named name (a path,
// query or header parameter), as a FieldError.
func ParameterError(name, message string) FieldError {
	return FieldError{Parameter: name, Message: message}
}
