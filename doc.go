// Package viewer serves interactive OpenAPI documentation (Swagger UI) and
// the raw OpenAPI description, as JSON and YAML, from any net/http
// application. It is the Go counterpart of the Express middleware
// OpenapiViewerRouter (npm @map-colonies/openapi-express-viewer).
//
// # Usage
//
// Build a router from a [Config], call Setup once, and mount the handler at
// the application's root:
//
//	docs := viewer.New(viewer.Config{
//		FilePathOrSpec: "openapi.yaml", // a file, []byte, a map or a struct
//		UIPath:         "/api-docs",    // Swagger UI at /api-docs/
//		RawPath:        "/openapi",     // /openapi.json, /openapi.yaml, /openapi.yml
//	})
//	if err := docs.Setup(); err != nil {
//		log.Fatal(err) // names the file and line of any problem in the document
//	}
//	mux.Handle("/", docs.GetRouter())
//
// [NewHandler] does New and Setup in one call, and
// [OpenapiViewerRouter.Middleware] wraps an existing handler (chi, gin, echo
// or a plain mux) so that the viewer answers its own paths and passes every
// other request on.
//
// # What it does
//
//   - Swagger UI comes from github.com/swaggo/files/v2, embedded in the
//     binary: nothing is loaded from a CDN, and only the files the page uses
//     are served.
//   - The author's key order is kept in the JSON and YAML output, and YAML
//     follows YAML 1.2 (y, yes and on stay strings).
//   - Every URL the page uses is relative, so the viewer works under any
//     prefix (http.StripPrefix, a reverse proxy) with no option to set.
//   - Every response has a strong ETag and answers If-None-Match with 304;
//     text is served gzip- or brotli-compressed when the client accepts it,
//     compressed on the first request for that encoding, once, one response
//     at a time; Swagger UI's files are served with immutable caching under
//     content-hashed URLs.
//   - The page carries a strict Content-Security-Policy (no inline script)
//     and ignores ?url=, so it cannot be made to show another document.
//   - A spec split over files is bundled at Setup: relative $refs to other
//     files become entries of the document's components (path items are
//     copied in place), so the UI gets one document; remote (http:, https:)
//     $refs are left to the browser. See [Config].FilePathOrSpec.
//   - [OpenapiViewerRouter.Reload] swaps in freshly read documents at once,
//     and Config.Watch does it whenever a document file changes, until
//     [OpenapiViewerRouter.Close].
//   - A router holds no global state: any number can serve side by side.
package viewer
