module github.com/openapi-viewer/viewer

go 1.24.0

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/getkin/kin-openapi v0.135.0
	github.com/ghodss/yaml v1.0.0
	github.com/stretchr/testify v1.12.1
	github.com/swaggo/files/v2 v2.0.2
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/go-openapi/jsonpointer v0.21.0 // indirect
	github.com/go-openapi/swag v0.23.0 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/mohae/deepcopy v0.0.0-20170929034955-c48cc78d4826 // indirect
	github.com/oasdiff/yaml v0.0.9 // indirect
	github.com/oasdiff/yaml3 v0.0.9 // indirect
	github.com/perimeterx/marshmallow v1.1.5 // indirect
	github.com/woodsbury/decimal128 v1.3.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
