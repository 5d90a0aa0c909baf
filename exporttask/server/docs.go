package server

import (
	"fmt"
	"net/http"

	viewer "github.com/openapi-viewer/viewer"
	"github.com/openapi-viewer/viewer/exporttask"
)

// withDocs serves the API's documentation in front of next: the viewer at
// /docs/ and the raw description at /openapi.json, /openapi.yaml and
// /openapi.yml.
func (s *Server) withDocs(next http.Handler) (http.Handler, error) {
	v := viewer.New(viewer.Config{FilePathOrSpec: exporttask.OpenAPI(), UIPath: "/docs", RawPath: "/openapi"})
	if err := v.Setup(); err != nil {
		return nil, fmt.Errorf("server: setting up the documentation: %w", err)
	}
	return v.Middleware(next), nil
}
