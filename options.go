package viewer

import (
	"io/fs"
	"time"

	"github.com/openapi-viewer/viewer/internal/specdoc"
)

// Config configures an [OpenapiViewerRouter]. Only FilePathOrSpec (or Specs)
// and UIPath are required; every other field has the default its comment
// gives. New copies Config, and Setup and each Reload read that copy: changing
// the caller's Config afterwards has no effect, but Reload (and Config.Watch)
// read again the slices, maps and pointers it shares (Specs,
// SwaggerUIConfig, ...), so do not change those after New.
type Config struct {
	// FilePathOrSpec is the OpenAPI document (3.x or Swagger 2.0), given as
	// one of:
	//   - string or [File]: the path of a YAML or JSON file (read from FS
	//     when FS is set). A string that spans lines or starts like a
	//     document ("{", "openapi:", "swagger:", "---") is refused by Setup
	//     rather than taken for a path: pass a document as [Bytes];
	//   - []byte or [Bytes]: a YAML or JSON document;
	//   - any other value that encoding/json can marshal, such as a
	//     map[string]any or a struct (a Go map has no order, so its keys
	//     come out sorted; a struct's come in field order).
	// YAML follows YAML 1.2 (y, yes and on stay strings; 017 is 17) and the
	// author's key order is kept in every output.
	//
	// Relative $refs to other files are bundled at Setup into the one
	// document served: they are resolved against the directory of the file
	// holding the $ref and read from FS when it is set, else from the OS
	// file system (a document given as bytes or as an object resolves them
	// from the root of FS, and without FS they are an error). A $ref may
	// stand anywhere, whole sections included (info, paths, definitions,
	// components and its maps). Where the object has a components section
	// (definitions, parameters or responses in Swagger 2.0), it becomes an
	// entry there: the entry of the document's own that is only that $ref
	// (User: {$ref: ./User.yaml}), else one named after its key or its
	// file, with "_2", "_3", ... added in the order found when the name is
	// taken; every $ref to the same file and pointer points to that one
	// entry. Anything else (a path item, info, a section, a list) is
	// copied in place of its $ref. $refs with a URL scheme (http:, https:)
	// and those inside examples, defaults, enums and x- extensions are left
	// as they are. A broken $ref is a Setup error naming the file and line
	// of the $ref. See "Specs split over files" in docs/viewer.md.
	// Required unless Specs is set.
	FilePathOrSpec any

	// UIPath is where Swagger UI is served, e.g. "/api-docs": the page is at
	// "/api-docs/" and "/api-docs" redirects there. It must start with "/".
	// Required.
	UIPath string

	// RawPath, when set, is the base of the raw document's endpoints: with
	// "/spec" the document is served at "/spec.json", "/spec.yml" and
	// "/spec.yaml". Written with one of those extensions ("/spec.json"), it
	// means the same: the three forms are served under its stem, never
	// "/spec.json.json". It must start with "/" and stay out of UIPath's
	// routes. Default: "" (the document is then served to the UI only, at
	// "<UIPath>/openapi.json").
	RawPath string

	// FS, when set, is the file system a path in FilePathOrSpec or Specs is
	// read from (so a //go:embed'ed spec works). Default: nil (the OS file
	// system).
	FS fs.FS

	// Specs adds documents to the UI's drop-down (Swagger UI's "urls"),
	// after FilePathOrSpec when both are set. Each is served at
	// "<UIPath>/specs/<slug>.json", ".yaml" and ".yml", the slug being made
	// from its Name. Default: none.
	Specs []SpecSource

	// Title is the page title. Default: the first document's info.title.
	Title string

	// CustomCSS is a stylesheet added after Swagger UI's, served as a file
	// (like the Express package's customUiCss). Default: "".
	CustomCSS string

	// CustomJS are scripts added after Swagger UI's. An entry that starts
	// with http://, https://, // (scheme-relative), /, ./ or ../ and holds
	// no white space is a URL, loaded from there (its origin is added to the
	// Content-Security-Policy's script-src). Any other entry is JavaScript
	// source, served as a file of its own, never inlined; Setup refuses an
	// entry without white space and without any of ( = ; { (such as
	// "custom.js", which would otherwise run as source), and says to write
	// "./custom.js". Default: none.
	CustomJS []string

	// Favicon is the URL of the page's icon: an http(s) URL, a
	// scheme-relative URL, a path or a relative URL, or an image as a data:
	// URL ("data:image/png;base64,..."). Setup refuses anything else.
	// Default: "" (Swagger UI's icons, served by the viewer).
	Favicon string

	// DeepLinking makes operations and tags linkable (Swagger UI's
	// deepLinking). Default: true (nil means true).
	DeepLinking *bool

	// DocExpansion is how much of the document is expanded at first:
	// "list" (tags), "full" (tags and operations) or "none". Default: "list".
	DocExpansion string

	// DefaultModelsExpandDepth is how deep the Models section is expanded;
	// -1 hides it. Default: 1 (nil means 1).
	DefaultModelsExpandDepth *int

	// PersistAuthorization keeps the credentials entered in the UI across
	// page reloads (in the browser's local storage). Default: false.
	PersistAuthorization bool

	// TryItOutEnabled opens every operation's "Try it out" form at once.
	// Default: false.
	TryItOutEnabled bool

	// DisplayRequestDuration shows how long each "Try it out" request took.
	// Default: false.
	DisplayRequestDuration bool

	// Filter shows a box that filters operations by tag. Default: false.
	Filter bool

	// Theme is the page's color scheme: "auto" follows the browser's
	// prefers-color-scheme (Swagger UI's dark mode while the system is
	// set to dark, changing with it), "light" is always light and "dark"
	// always dark. Dark mode is Swagger UI's own (a dark-mode class on the
	// page's root element, styled by its stylesheet from Swagger UI 5.31
	// on; an older Config.SwaggerUI shows the light page with a dark
	// background). The class is set by a script served as a file ("auto"),
	// or written into the page ("dark"): no inline script. With "light"
	// and "dark", the dark-mode switch of Swagger UI's top bar (shown with
	// several documents) is hidden. Setup refuses any other value.
	// Default: "" ("auto").
	Theme string

	// SwaggerUIConfig passes further settings to SwaggerUIBundle, encoded as
	// JSON; they override the typed fields above. The keys the viewer owns
	// (url, urls, configUrl, queryConfigEnabled, dom_id, domNode, spec,
	// layout, presets, plugins) are refused by Setup. Default: none.
	SwaggerUIConfig map[string]any

	// OAuth2, when set, is passed to Swagger UI's initOAuth. The OAuth2
	// redirect page is served at "<UIPath>/oauth2-redirect.html" when OAuth2
	// is set or when a document declares an oauth2 or openIdConnect security
	// scheme (Swagger UI can authorize with it, the user typing the client
	// id); otherwise that path is 404. Default: nil.
	OAuth2 *OAuth2Config

	// YAMLContentType is the Content-Type of the YAML endpoints. Set it to
	// "text/plain; charset=utf-8" to have browsers show the document instead
	// of downloading it. Default: "application/yaml; charset=utf-8"
	// (RFC 9512).
	YAMLContentType string

	// ContentSecurityPolicy replaces the page's Content-Security-Policy
	// header. Default: "" (a strict policy built by Setup: scripts, styles
	// and fonts from the viewer only, no framing by other sites, and
	// connections to the viewer, to every server the documents declare and
	// to the URLs Swagger UI fetches for OAuth2 and OpenID Connect; see
	// ConnectSrc for how servers with variables are allowed).
	ContentSecurityPolicy string

	// ConnectSrc adds sources to the default policy's connect-src, for
	// servers "Try it out" calls that no document names (for example an
	// OpenID Connect provider's token endpoint, which only its discovery
	// document names). Each entry is a CSP host or scheme source: an origin
	// such as "https://api.example.com", "https://*.example.com" for its
	// subdomains, "http://127.0.0.1:*" for any port, optionally followed by
	// a path ("https://api.example.com/v1/"), or a scheme such as "https:".
	// Setup refuses anything else (keywords such as 'self', nonces, hashes), and refuses ConnectSrc
	// together with ContentSecurityPolicy (write the sources into that
	// policy instead).
	//
	// Without it, connect-src allows, beside the viewer, the origin of
	// every server URL of the documents (top-level, path-level and
	// operation-level servers, and Swagger 2.0's host and schemes; a
	// scheme-relative URL "//host" as a host source matching the page's
	// scheme; relative URLs are the viewer's own origin). A {variable} takes
	// each value of its enum and its default. A variable without an enum
	// may take any value in the UI, so it adds a wildcard: the port "*" when
	// it is in the port, "*." and the rest of the host when it is in a host
	// label ("https://{tenant}.example.com" gives "https://*.example.com"),
	// and the whole scheme ("https:") when CSP cannot name the hosts
	// otherwise (a variable in the last label or an IP address, or the whole
	// URL). Beyond 64 combinations of enum values, every variable of that
	// server counts as free. Default: none.
	ConnectSrc []string

	// SwaggerUI, when set, is the Swagger UI the page uses instead of the
	// embedded one: the files of a swagger-ui-dist 5.x package at the root
	// of the file system (swagger-ui-bundle.js,
	// swagger-ui-standalone-preset.js and swagger-ui.css are required; each
	// may instead be stored gzip-compressed, with ".gz" added to its name).
	// For example, after "npm pack swagger-ui-dist@5.35.0" and unpacking it
	// into ui/:
	//
	//	//go:embed ui/package/swagger-ui-bundle.js ui/package/swagger-ui-standalone-preset.js
	//	//go:embed ui/package/swagger-ui.css ui/package/oauth2-redirect.js ui/package/favicon-*.png
	//	var dist embed.FS
	//	ui, _ := fs.Sub(dist, "ui/package")
	//	cfg.SwaggerUI = ui
	//
	// (embedding only these files: the package's source maps and other
	// bundles are 10 MB more).
	// favicon-32x32.png and favicon-16x16.png are served when present. The
	// OAuth2 redirect page runs the distribution's oauth2-redirect.js, else
	// the inline script of its oauth2-redirect.html, else the viewer's own
	// script; the page itself is the viewer's, with no inline script. No
	// other file is read: the distribution's index.html and
	// swagger-initializer.js are never served.
	//
	// Setup reads the files once (Reload keeps them) and the version from
	// the bundle's build info (PACKAGE_VERSION), and refuses files that are
	// not Swagger UI 5. The version decides the OpenAPI versions accepted:
	// 3.2.x from Swagger UI 5.32.0 on, as Swagger UI renders it from then
	// (the embedded 5.32.8 does).
	// The page's Content-Security-Policy, content-hashed URLs and ?url=
	// handling are the same as with the embedded files. Unlike those, which
	// every router shares, these are held (and compressed) per router.
	// Default: nil (the Swagger UI embedded from
	// github.com/swaggest/swgui/v5/static, see the package doc).
	SwaggerUI fs.FS

	// Watch, when positive, is how often the document files (FilePathOrSpec,
	// Specs and every file their $refs name) are checked for changes, for
	// development: when a file's size or modification time changes, the
	// router reloads (see [OpenapiViewerRouter.Reload]), so the next page
	// load shows the edit; a failed reload is logged and the previous
	// documents stay served. The polling runs from Setup until
	// [OpenapiViewerRouter.Close]. Default: 0 (no watching).
	Watch time.Duration
}

// SpecSource is one more document for the UI's drop-down (see Config.Specs).
type SpecSource struct {
	// Name is shown in the drop-down; it also makes the document's URL slug
	// ("Billing API" is served at "<UIPath>/specs/billing-api.json").
	// Required, and unique after slugging.
	Name string
	// FilePathOrSpec is the document, in any form Config.FilePathOrSpec
	// accepts. Required.
	FilePathOrSpec any
}

// OAuth2Config holds Swagger UI's initOAuth settings: what the UI sends to
// the authorization server when a user authorizes with an OAuth2 scheme.
type OAuth2Config struct {
	// ClientID is the OAuth2 client id. Required.
	ClientID string
	// ClientSecret is sent by the implicit and password flows; never set
	// one for a public client. Default: "".
	ClientSecret string
	// Realm is added to the authorization URL. Default: "".
	Realm string
	// AppName is shown in the authorization dialog. Default: "".
	AppName string
	// Scopes are selected by default. Default: none.
	Scopes []string
	// UsePKCEWithAuthorizationCodeGrant enables PKCE for the authorization
	// code flow (recommended). Default: false.
	UsePKCEWithAuthorizationCodeGrant bool
	// AdditionalQueryStringParams are added to the authorization URL.
	// Default: none.
	AdditionalQueryStringParams map[string]string
}

// DefaultYAMLContentType is the Content-Type of the YAML endpoints when
// Config.YAMLContentType is empty (RFC 9512's media type).
const DefaultYAMLContentType = "application/yaml; charset=utf-8"

// jsonContentType is the Content-Type of the JSON endpoints.
const jsonContentType = "application/json; charset=utf-8"

// File is a FilePathOrSpec value that is always a file path (read from
// Config.FS when it is set), whatever its text: viewer.File("openapi.yaml").
type File = specdoc.File

// Bytes is a FilePathOrSpec value that is always a YAML or JSON document:
// viewer.Bytes(doc). A plain []byte means the same.
type Bytes = specdoc.Bytes
