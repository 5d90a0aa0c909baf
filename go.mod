module github.com/openapi-viewer/viewer

go 1.24

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/swaggo/files/v2 v2.0.2
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/ghodss/yaml v1.0.0
	github.com/stretchr/testify v1.12.1
)

require gopkg.in/yaml.v2 v2.4.0 // indirect
