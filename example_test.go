package viewer_test

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	viewer "github.com/openapi-viewer/viewer"
)

// The three steps of the Express package: configure, set up, mount.
func ExampleNew() {
	docs := viewer.New(viewer.Config{
		FilePathOrSpec: "testdata/wild/petstore-expanded.yaml",
		UIPath:         "/api-docs",
		RawPath:        "/openapi",
	})
	if err := docs.Setup(); err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", docs.GetRouter())

	for _, path := range []string{"/api-docs", "/api-docs/", "/openapi.json", "/openapi.yaml", "/elsewhere"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if loc := rec.Header().Get("Location"); loc != "" {
			fmt.Println(path, rec.Code, "->", loc)
			continue
		}
		fmt.Println(path, rec.Code, rec.Header().Get("Content-Type"))
	}
	// Output:
	// /api-docs 301 -> ./api-docs/
	// /api-docs/ 200 text/html; charset=utf-8
	// /openapi.json 200 application/json; charset=utf-8
	// /openapi.yaml 200 application/yaml; charset=utf-8
	// /elsewhere 404 text/plain; charset=utf-8
}

// NewHandler does New and Setup in one call; a document can be given as
// bytes (or as a map or struct).
func ExampleNewHandler() {
	spec := []byte(`
openapi: 3.1.0
info:
  title: Hello
  version: 1.0.0
paths: {}
`)
	docs, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: spec, UIPath: "/docs", RawPath: "/spec"})
	if err != nil {
		log.Fatal(err)
	}
	rec := httptest.NewRecorder()
	docs.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/spec.yaml", nil))
	fmt.Print(rec.Body.String())
	// Output:
	// openapi: 3.1.0
	// info:
	//   title: Hello
	//   version: 1.0.0
	// paths: {}
}

// Middleware adds the docs to an existing application: the viewer answers
// its own paths and passes the rest on.
func ExampleOpenapiViewerRouter_Middleware() {
	docs := viewer.New(viewer.Config{FilePathOrSpec: "testdata/wild/petstore-expanded.yaml", UIPath: "/docs"})
	if err := docs.Setup(); err != nil {
		log.Fatal(err)
	}
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "the application answers", r.URL.Path)
	})
	handler := docs.Middleware(app)

	for _, path := range []string{"/pets", "/docs/"} {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		fmt.Println(path, rec.Code, rec.Header().Get("Content-Type"))
	}
	// Output:
	// /pets 200 text/plain; charset=utf-8
	// /docs/ 200 text/html; charset=utf-8
}

// Under a prefix: every URL the viewer writes is relative, so stripping the
// prefix is all it takes.
func ExampleOpenapiViewerRouter_GetRouter_prefix() {
	docs, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "testdata/wild/petstore-expanded.yaml", UIPath: "/docs"})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/team-a/", http.StripPrefix("/team-a", docs))

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/team-a/docs", nil))
	fmt.Println(rec.Code, rec.Header().Get("Location"), "-> /team-a/docs/")
	// Output:
	// 301 ./docs/ -> /team-a/docs/
}
