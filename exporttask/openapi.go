package exporttask

import (
	"bytes"
	_ "embed" // for the OpenAPI description
)

//go:embed openapi.yaml
var openapiYAML []byte

// OpenAPI returns the API's OpenAPI 3.0.3 description (YAML): every
// operation, schema, error body, security scheme and webhook callback, with
// examples. Each call returns a new copy, which the caller may change.
func OpenAPI() []byte { return bytes.Clone(openapiYAML) }
