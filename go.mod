module github.com/openapi-viewer/viewer

go 1.24.0

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/stretchr/testify v1.12.1
	github.com/swaggest/swgui v1.8.9
	go.yaml.in/yaml/v3 v3.0.6
)
