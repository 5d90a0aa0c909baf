package exporttask

import "encoding/json"

// MarshalJSON writes {"parameter", "message"} or {"pointer", "message"}.
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

// ParameterError returns the problem with the parameter named name.
func ParameterError(name, message string) FieldError {
	return FieldError{Parameter: name, Message: message}
}
