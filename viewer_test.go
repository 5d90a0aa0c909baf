package viewer_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	viewer "github.com/openapi-viewer/viewer"
)

const petstore = "testdata/wild/petstore-expanded.yaml"

// TestExpressSuite ports the Express package's own tests: the router is
// mounted under /docs with http.StripPrefix, with rawPath /api and uiPath
// /api/ui, once from a file and once from an object.
func TestExpressSuite(t *testing.T) {
	src, err := os.ReadFile(petstore)
	require.NoError(t, err)
	var object map[string]any
	require.NoError(t, yaml.Unmarshal(src, &object))
	objectJSON, err := json.Marshal(object) // a Go map's order: sorted keys
	require.NoError(t, err)

	for _, tc := range []struct {
		name   string
		spec   any
		source []byte // what the served documents must equal, keys in this order
	}{
		{"from a file", petstore, src},
		{"from an object", object, objectJSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := viewer.New(viewer.Config{FilePathOrSpec: tc.spec, RawPath: "/api", UIPath: "/api/ui"})
			require.NoError(t, r.Setup())
			mux := http.NewServeMux()
			mux.Handle("/docs/", http.StripPrefix("/docs", r.GetRouter()))

			res, _ := get(t, mux, "/docs/api/ui")
			assert.Equal(t, http.StatusMovedPermanently, res.StatusCode)
			assert.Equal(t, "/docs/api/ui/", resolve(t, "/docs/api/ui", res.Header.Get("Location")))

			res, body := get(t, mux, "/docs/api/ui/")
			assert.Equal(t, http.StatusOK, res.StatusCode)
			assert.Contains(t, body, `<div id="swagger-ui">`)

			res, body = get(t, mux, "/docs/api.json")
			assert.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
			assert.Equal(t, decodeYAML(t, tc.source), decodeYAML(t, []byte(body)), "the JSON equals the source")
			assert.Equal(t, keyOrder(t, tc.source), keyOrder(t, []byte(body)), "the JSON keeps the source's key order")
			assert.True(t, strings.HasPrefix(body, "{\n  \""), "indented with two spaces")

			for _, ext := range []string{".yml", ".yaml"} {
				res, body = get(t, mux, "/docs/api"+ext)
				assert.Equal(t, http.StatusOK, res.StatusCode)
				assert.Equal(t, "application/yaml; charset=utf-8", res.Header.Get("Content-Type"))
				assert.Equal(t, decodeYAML(t, tc.source), decodeYAML(t, []byte(body)), "%s parses back to the source", ext)
				assert.Equal(t, keyOrder(t, tc.source), keyOrder(t, []byte(body)), "%s keeps the source's key order", ext)
			}

			res, _ = get(t, mux, "/docs/api/")
			assert.Equal(t, http.StatusNotFound, res.StatusCode)
		})
	}
}

// TestPageAssetsLoad follows every URL the page refers to, and the
// initializer's spec URL, under a prefix, and checks each loads with the
// right Content-Type.
func TestPageAssetsLoad(t *testing.T) {
	for _, cfg := range []viewer.Config{
		{FilePathOrSpec: petstore, UIPath: "/api/ui", RawPath: "/api"},
		{FilePathOrSpec: petstore, UIPath: "/docs/"},
		{FilePathOrSpec: petstore, UIPath: "/"},
		{UIPath: "/docs", Specs: []viewer.SpecSource{{Name: "Pets", FilePathOrSpec: petstore}, {Name: "Links", FilePathOrSpec: "testdata/wild/link-example.yaml"}},
			CustomCSS: "body{color:red}", CustomJS: []string{"console.log('hi')", "https://cdn.example.com/x.js"}},
	} {
		t.Run(cfg.UIPath, func(t *testing.T) {
			r := viewer.New(cfg)
			require.NoError(t, r.Setup())
			mux := http.NewServeMux()
			mux.Handle("/prefix/", http.StripPrefix("/prefix", r.GetRouter()))
			pageURL := "/prefix" + strings.TrimSuffix(cfg.UIPath, "/") + "/"
			res, page := get(t, mux, pageURL)
			require.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))

			wantType := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".png": "image/png"}
			refs := pageRefs(page)
			require.GreaterOrEqual(t, len(refs), 5)
			var initializer string
			for _, ref := range refs {
				if strings.HasPrefix(ref, "https://") {
					continue // an external CustomJS URL
				}
				u := resolve(t, pageURL, ref)
				res, body := get(t, mux, u)
				require.Equal(t, http.StatusOK, res.StatusCode, u)
				ext := u[strings.LastIndexByte(strings.SplitN(u, "?", 2)[0], '.'):]
				ext = strings.SplitN(ext, "?", 2)[0]
				assert.Equal(t, wantType[ext], res.Header.Get("Content-Type"), u)
				assert.NotEmpty(t, body, u)
				if strings.Contains(u, "initializer.js") {
					initializer = body
				}
			}
			require.NotEmpty(t, initializer)
			urls := specURLs(t, initializer)
			require.NotEmpty(t, urls)
			for _, su := range urls {
				res, body := get(t, mux, resolve(t, pageURL, su))
				require.Equal(t, http.StatusOK, res.StatusCode, su)
				assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
				assert.True(t, json.Valid([]byte(body)))
			}
		})
	}
}

// specURLs reads the document URLs that the initializer passes to Swagger
// UI, checking that they are written literally and relative.
func specURLs(t *testing.T, initializer string) []string {
	t.Helper()
	start := strings.Index(initializer, "var config = ")
	require.GreaterOrEqual(t, start, 0)
	dec := json.NewDecoder(strings.NewReader(initializer[start+len("var config = "):]))
	var cfg struct {
		URL  string `json:"url"`
		URLs []struct {
			URL, Name string
		} `json:"urls"`
		QueryConfigEnabled *bool `json:"queryConfigEnabled"`
	}
	require.NoError(t, dec.Decode(&cfg))
	require.NotNil(t, cfg.QueryConfigEnabled)
	assert.False(t, *cfg.QueryConfigEnabled, "?url= must be ignored")
	out := []string{}
	if cfg.URL != "" {
		out = append(out, cfg.URL)
	}
	for _, u := range cfg.URLs {
		out = append(out, u.URL)
	}
	for _, u := range out {
		assert.True(t, strings.HasPrefix(u, "./") || strings.HasPrefix(u, "../"), "spec URL %q must be relative", u)
	}
	return out
}

func TestSetupErrors(t *testing.T) {
	write := func(name, content string) string {
		p := t.TempDir() + "/" + name
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	good := "openapi: 3.0.0\ninfo:\n  title: T\n  version: '1'\npaths: {}\n"
	cases := []struct {
		name  string
		cfg   viewer.Config
		is    error    // errors.Is target
		parts []string // substrings of the message
	}{
		{"missing file", viewer.Config{FilePathOrSpec: "testdata/nope.yaml", UIPath: "/d"}, fs.ErrNotExist, []string{"testdata/nope.yaml", "no such file"}},
		{"empty document", viewer.Config{FilePathOrSpec: write("e.yaml", ""), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"e.yaml", "empty document"}},
		{"YAML list", viewer.Config{FilePathOrSpec: write("l.yaml", "- a\n- b\n"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"l.yaml:1:", "not a list"}},
		{"invalid YAML", viewer.Config{FilePathOrSpec: write("i.yaml", "openapi: 3.0.0\ninfo:\n  title: [x\n"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"i.yaml:", "invalid YAML"}},
		{"invalid JSON", viewer.Config{FilePathOrSpec: write("i.json", "{\n\"openapi\": \"3.0.0\",\n\"info\": }\n"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"i.json:3:", "invalid JSON"}},
		{"invalid JSON bytes", viewer.Config{FilePathOrSpec: []byte(`{"openapi": 3`), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"FilePathOrSpec", "invalid JSON"}},
		{"no openapi field", viewer.Config{FilePathOrSpec: []byte("info: {title: T, version: '1'}"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"missing the openapi (3.x) or swagger (2.0) field"}},
		{"openapi not a string", viewer.Config{FilePathOrSpec: write("n.yaml", "openapi: 3.0\ninfo: {title: T, version: '1'}\n"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"n.yaml:1:", "openapi must be a string", "quote it"}},
		{"swagger 1.2", viewer.Config{FilePathOrSpec: []byte(`{"swagger":"1.2","info":{"title":"T","version":"1"}}`), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{`swagger is "1.2"`}},
		{"openapi 4", viewer.Config{FilePathOrSpec: []byte(`{"openapi":"4.0.0","info":{"title":"T","version":"1"}}`), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{`openapi is "4.0.0"`}},
		{"no info", viewer.Config{FilePathOrSpec: []byte("openapi: 3.1.0\n"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"missing the info mapping"}},
		{"no title", viewer.Config{FilePathOrSpec: write("t.yaml", "openapi: 3.1.0\ninfo:\n  version: '1'\n"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"t.yaml:3:", "info.title must be a non-empty string"}},
		{"no version", viewer.Config{FilePathOrSpec: []byte(`{"openapi":"3.1.0","info":{"title":"T"}}`), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"info.version must be a non-empty string"}},
		{"duplicate key", viewer.Config{FilePathOrSpec: write("d.yaml", good+"paths: {}\n"), UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"d.yaml:6:", `duplicate key "paths"`}},
		{"int", viewer.Config{FilePathOrSpec: 42, UIPath: "/d"}, viewer.ErrInvalidConfig, []string{"unsupported type int"}},
		{"nil", viewer.Config{UIPath: "/d"}, viewer.ErrInvalidConfig, []string{"FilePathOrSpec is required"}},
		{"unmarshalable object", viewer.Config{FilePathOrSpec: map[string]any{"f": func() {}}, UIPath: "/d"}, viewer.ErrInvalidSpec, []string{"encoding map[string]interface {} as JSON"}},
		{"empty UIPath", viewer.Config{FilePathOrSpec: petstore}, viewer.ErrInvalidConfig, []string{`UIPath "" must start with "/"`}},
		{"relative UIPath", viewer.Config{FilePathOrSpec: petstore, UIPath: "docs"}, viewer.ErrInvalidConfig, []string{`UIPath "docs" must start with "/"`}},
		{"unclean UIPath", viewer.Config{FilePathOrSpec: petstore, UIPath: "/a/../docs"}, viewer.ErrInvalidConfig, []string{"clean path"}},
		{"RawPath with slash", viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/spec/"}, viewer.ErrInvalidConfig, []string{`must not end with "/"`}},
		{"RawPath collides", viewer.Config{FilePathOrSpec: petstore, UIPath: "/spec.json", RawPath: "/spec"}, viewer.ErrInvalidConfig, []string{"collides with UIPath"}},
		{"bad DocExpansion", viewer.Config{FilePathOrSpec: petstore, UIPath: "/d", DocExpansion: "all"}, viewer.ErrInvalidConfig, []string{"DocExpansion"}},
		{"reserved UI key", viewer.Config{FilePathOrSpec: petstore, UIPath: "/d", SwaggerUIConfig: map[string]any{"url": "https://evil.example/spec.json"}}, viewer.ErrInvalidConfig, []string{`SwaggerUIConfig["url"]`}},
		{"duplicate slug", viewer.Config{UIPath: "/d", Specs: []viewer.SpecSource{{Name: "A b", FilePathOrSpec: petstore}, {Name: "a-B", FilePathOrSpec: petstore}}}, viewer.ErrInvalidConfig, []string{"same URL slug"}},
		{"bad spec in Specs", viewer.Config{UIPath: "/d", Specs: []viewer.SpecSource{{Name: "A", FilePathOrSpec: []byte("x: 1")}}}, viewer.ErrInvalidSpec, []string{"Specs[0].FilePathOrSpec"}},
		{"OAuth2 without client", viewer.Config{FilePathOrSpec: petstore, UIPath: "/d", OAuth2: &viewer.OAuth2Config{}}, viewer.ErrInvalidConfig, []string{"OAuth2.ClientID"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := viewer.New(c.cfg)
			var err error
			require.NotPanics(t, func() { err = r.Setup() })
			require.Error(t, err)
			assert.ErrorIs(t, err, c.is)
			for _, p := range c.parts {
				assert.Contains(t, err.Error(), p)
			}
			assert.PanicsWithValue(t, "viewer: GetRouter called before a successful Setup: call Setup first and check its error",
				func() { r.GetRouter() }, "no half-working router after a failed Setup")
		})
	}
}

func TestSpecErrorIsTyped(t *testing.T) {
	err := viewer.New(viewer.Config{FilePathOrSpec: []byte("openapi: 3.0\n"), UIPath: "/d"}).Setup()
	var se *viewer.SpecError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "FilePathOrSpec", se.Source)
	assert.Equal(t, 1, se.Line)
}

func TestSetupLifecycle(t *testing.T) {
	r := viewer.New(viewer.Config{FilePathOrSpec: petstore, UIPath: "/d"})
	assert.Panics(t, func() { r.GetRouter() })
	assert.Panics(t, func() { r.Middleware(http.NotFoundHandler()) })
	require.NoError(t, r.Setup())
	assert.ErrorIs(t, r.Setup(), viewer.ErrAlreadySetup)
	assert.NotNil(t, r.GetRouter())
}

func TestSeveralRoutersSideBySide(t *testing.T) {
	a, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/a/docs", RawPath: "/a/spec"})
	require.NoError(t, err)
	b, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "testdata/wild/callback-example.yaml", UIPath: "/b/docs", RawPath: "/b/spec"})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/a/", a)
	mux.Handle("/b/", b)
	_, bodyA := get(t, mux, "/a/spec.json")
	_, bodyB := get(t, mux, "/b/spec.json")
	assert.Contains(t, bodyA, "Swagger Petstore")
	assert.Contains(t, bodyB, "Callback Example")
	_, pageA := get(t, mux, "/a/docs/")
	_, pageB := get(t, mux, "/b/docs/")
	assert.Contains(t, pageA, "<title>Swagger Petstore</title>")
	assert.Contains(t, pageB, "<title>Callback Example</title>")
}

func TestMiddlewarePassesOtherRequests(t *testing.T) {
	r := viewer.New(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, r.Setup())
	app := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("app")) })
	h := r.Middleware(app)
	for _, p := range []string{"/", "/pets", "/docs/unknown.js", "/openapi", "/openapi.txt", "/docs/../pets"} {
		res, body := get(t, h, p)
		assert.Equal(t, http.StatusOK, res.StatusCode, p)
		assert.Equal(t, "app", body, p)
	}
	res, body := get(t, h, "/openapi.yaml")
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, body, "title: Swagger Petstore")
	res, _ = do(t, h, http.MethodPost, "/docs/")
	assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, "the viewer's own paths answer 405")
}

func TestSpecFromFS(t *testing.T) {
	src, err := os.ReadFile(petstore)
	require.NoError(t, err)
	fsys := fstest.MapFS{"api/openapi.yaml": {Data: src}}
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "api/openapi.yaml", FS: fsys, UIPath: "/docs", RawPath: "/spec"})
	require.NoError(t, err)
	_, body := get(t, h, "/spec.json")
	assert.Contains(t, body, `"title": "Swagger Petstore"`)

	_, err = viewer.NewHandler(viewer.Config{FilePathOrSpec: "api/missing.yaml", FS: fsys, UIPath: "/docs"})
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.ErrorContains(t, err, "api/missing.yaml")
}

func TestSpecFromBytesAndStruct(t *testing.T) {
	type info struct {
		Title   string `json:"title"`
		Version string `json:"version"`
	}
	type doc struct {
		OpenAPI string         `json:"openapi"`
		Info    info           `json:"info"`
		Paths   map[string]any `json:"paths"`
	}
	for name, spec := range map[string]any{
		"YAML bytes":      []byte("openapi: 3.1.0\ninfo:\n  title: T\n  version: v\npaths: {}\n"),
		"JSON bytes":      []byte(`{"openapi":"3.1.0","info":{"title":"T","version":"v"},"paths":{}}`),
		"YAML flow":       []byte(`{openapi: 3.1.0, info: {title: T, version: v}, paths: {}}`),
		"struct":          doc{OpenAPI: "3.1.0", Info: info{Title: "T", Version: "v"}, Paths: map[string]any{}},
		"pointer":         &doc{OpenAPI: "3.1.0", Info: info{Title: "T", Version: "v"}, Paths: map[string]any{}},
		"json.RawMessage": json.RawMessage(`{"openapi":"3.1.0","info":{"title":"T","version":"v"},"paths":{}}`),
		"BOM":             append([]byte("\xEF\xBB\xBF"), []byte("openapi: 3.1.0\ninfo: {title: T, version: v}\npaths: {}\n")...),
	} {
		t.Run(name, func(t *testing.T) {
			h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: spec, UIPath: "/docs", RawPath: "/spec"})
			require.NoError(t, err)
			_, body := get(t, h, "/spec.json")
			assert.JSONEq(t, `{"openapi":"3.1.0","info":{"title":"T","version":"v"},"paths":{}}`, body)
			assert.Equal(t, []string{"/openapi", "/info", "/info/title", "/info/version", "/paths"}, keyOrder(t, []byte(body)))
		})
	}
}

func TestSwagger2IsServed(t *testing.T) {
	h, err := viewer.NewHandler(viewer.Config{
		FilePathOrSpec: []byte("swagger: '2.0'\ninfo: {title: Old, version: 1.0.0}\nhost: api.example.com\nschemes: [https]\npaths: {}\n"),
		UIPath:         "/docs",
	})
	require.NoError(t, err)
	res, _ := get(t, h, "/docs/")
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "connect-src 'self' https://api.example.com")
}
