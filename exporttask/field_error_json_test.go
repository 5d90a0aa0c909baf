package exporttask_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

func TestFieldErrorJSONHasOneLocation(t *testing.T) {
	tests := []struct {
		name string
		in   exporttask.FieldError
		want string
	}{
		{"pointer", exporttask.FieldError{Pointer: "/domain", Message: "m"}, `{"pointer":"/domain","message":"m"}`},
		{"whole body", exporttask.FieldError{Message: "m"}, `{"pointer":"","message":"m"}`},
		{"parameter", exporttask.ParameterError("limit", "m"), `{"parameter":"limit","message":"m"}`},
		{"parameter wins", exporttask.FieldError{Pointer: "/x", Parameter: "id", Message: "m"}, `{"parameter":"id","message":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
			var back exporttask.FieldError
			require.NoError(t, json.Unmarshal(b, &back))
			if tt.in.Parameter != "" {
				assert.Equal(t, tt.in.Parameter, back.Parameter)
			} else {
				assert.Equal(t, tt.in, back)
			}
		})
	}
}
