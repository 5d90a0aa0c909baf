module github.com/openapi-viewer/viewer

go 1.24

require (
	github.com/getkin/kin-openapi v0.135.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
)
