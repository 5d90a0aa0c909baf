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
// RawPath may also be written as one of its forms: "/openapi.json" (or
// ".yaml", ".yml") serves the same three paths, never /openapi.json.json.
//
// [NewHandler] does New and Setup in one call, and
// [OpenapiViewerRouter.Middleware] wraps an existing handler (chi, gin, echo
// or a plain mux) so that the viewer answers its own paths and passes every
// other request on.
//
// # What it does
//
//   - Swagger UI is embedded in the binary (see Swagger UI below): nothing
//     is loaded from a CDN, and only the files the page uses are served.
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
//   - A spec split over files is bundled at Setup: a relative $ref to
//     another file, anywhere in the document (whole sections such as info,
//     paths or definitions included), becomes an entry of the document's
//     components, one per file and pointer, under the name the author gave
//     it when a components entry is that $ref; anything without a
//     components section (path items, info, sections) is copied in place.
//     The UI gets one document; remote (http:, https:) $refs are left to
//     the browser. See [Config].FilePathOrSpec.
//   - [OpenapiViewerRouter.Reload] swaps in freshly read documents at once,
//     and Config.Watch does it whenever a document file changes, until
//     [OpenapiViewerRouter.Close].
//   - A router holds no global state: any number can serve side by side.
//
// # Swagger UI
//
// By default the page uses Swagger UI 5.32.8, embedded from the Go module
// github.com/swaggest/swgui (package v5/static, v1.8.9): the files of
// swagger-ui-dist 5.32.8, stored gzip-compressed, whose bundle's build info
// names itself PACKAGE_VERSION "5.32.8" and bundles DOMPurify 3.4.11. A
// test reads both versions from the embedded bundle and fails when
// DOMPurify is older than DOMPurify 3.4.7 or Swagger UI older than Swagger
// UI 5.32.7, the releases that fix GHSA-39q2-94rc-95cp (DOMPurify 3.4.0),
// CVE-2026-49458, CVE-2026-49459 and CVE-2026-49978. That Swagger UI
// renders Swagger 2.0 and OpenAPI 3.0.x, 3.1.x and 3.2.x, so openapi: 3.2.0
// documents are accepted by default. Of the module's files the viewer
// serves only those the page loads (the bundle, its stylesheet, the
// standalone preset with several documents, the icons, and the OAuth2
// redirect script when needed), not its ES bundles, though a program links
// them all (1.1 MB); the viewer as a whole makes a program that serves one
// document about 3.9 MB larger than one serving it with plain net/http
// (bench/README.md).
//
// Config.Theme picks light or dark mode, or ("auto", the default) follows
// the browser's prefers-color-scheme; the page stays free of inline
// script.
//
// Config.SwaggerUI replaces it with the files of any swagger-ui-dist 5.x
// package, for example to pin another release: npm pack
// swagger-ui-dist@5.35.0, unpack it, and //go:embed its package/
// directory, or read it from disk with os.DirFS. The viewer reads
// swagger-ui-bundle.js, swagger-ui-standalone-preset.js, swagger-ui.css,
// the favicons and the OAuth2 redirect script, about 2.2 MB uncompressed
// for 5.35.0, which is what //go:embed of those files adds to the binary
// (embed only them, not the source maps and ES bundles beside them, 10 MB
// more). Such a Swagger UI renders OpenAPI 3.2 from 5.32.0 on; Setup
// refuses 3.2 documents with an older one. The embedded files stay linked
// as well, since the package imports them.
package viewer
