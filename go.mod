module github.com/openapi-viewer/viewer

go 1.24

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/swaggo/files/v2 v2.0.2
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/chromedp/cdproto v0.0.0-20250724212937-08a3db8b4327
	github.com/chromedp/chromedp v0.14.2
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/chromedp/sysutil v1.1.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20250725192818-e39067aee2d2 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/gobwas/ws v1.4.0 // indirect
	golang.org/x/sys v0.34.0 // indirect
)
