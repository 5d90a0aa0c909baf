package exporttask_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestProblemErrorSaysItOnce: a problem's error names its title once,
// whether or not the detail repeats it.
func TestProblemErrorSaysItOnce(t *testing.T) {
	ve := exporttask.NewValidationError(exporttask.FieldError{Pointer: "/domain", Message: "is required"})
	assert.Equal(t, "exporttask: 400 invalid request: /domain: is required", ve.Problem().Error())
	p := &exporttask.Problem{Status: 404, Title: "Not Found", Detail: "task 7 not found"}
	assert.Equal(t, "exporttask: 404 Not Found: task 7 not found", p.Error())
}
