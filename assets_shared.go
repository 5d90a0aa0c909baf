package viewer

import (
	"net/http"
	"sync"
)

// sharedAssets holds the files that are the same for every router: Swagger
// UI's, the viewer's stylesheet and the OAuth2 redirect page. It is the
// package's only package-level value, and it is read-only: built on first
// use, never changed after, so routers cannot affect one another through
// it. Sharing it means a program with many routers compresses Swagger UI's
// 1.8 MB once, not once per router, and keeps one copy of the results.
var sharedAssets = sync.OnceValues(buildSharedAssets)

// assetSet maps a file name to its resource.
type assetSet map[string]*resource

func buildSharedAssets() (assetSet, error) {
	set := assetSet{}
	for _, a := range swaggerAssets() {
		body, err := readSwaggerAsset(a.name)
		if err != nil {
			return nil, err
		}
		set[a.name] = newAsset(a.name, a.contentType, body, a.compressible)
	}
	css, err := readOwnAsset("viewer.css")
	if err != nil {
		return nil, err
	}
	set["viewer.css"] = newAsset("viewer.css", "text/css; charset=utf-8", css, true)

	html, js, err := oauth2Redirect("./oauth2-redirect.js")
	if err != nil {
		return nil, err
	}
	set["oauth2-redirect.html"] = newResource("oauth2-redirect.html", "text/html; charset=utf-8", html, true, http.Header{
		"Content-Security-Policy": {"default-src 'none'; script-src 'self'; frame-ancestors 'self'; base-uri 'none'"},
		"Referrer-Policy":         {"no-referrer"},
	})
	set["oauth2-redirect.js"] = newResource("oauth2-redirect.js", "text/javascript; charset=utf-8", js, true, nil)
	return set, nil
}
