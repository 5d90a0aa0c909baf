module github.com/openapi-viewer/viewer

go 1.24
