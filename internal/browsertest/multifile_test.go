package browsertest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer"
	"github.com/openapi-viewer/viewer/internal/npmfixture"
)

// TestChromiumMultiFileSpec serves a real spec split over some fifty files
// (paths/, components/, webhooks/; see testdata/wild/README.md), which the
// viewer bundles into one document at Setup. Every operation and webhook
// renders, fully expanded (so Swagger UI resolves every $ref of every
// operation), with no error, and the browser asks for no file of the split
// spec.
func TestChromiumMultiFileSpec(t *testing.T) {
	browser := startBrowser(t)
	srv := serve(t, viewer.Config{
		FilePathOrSpec: "../../testdata/wild/redocly-cafe/openapi.yaml",
		UIPath:         "/docs",
		DocExpansion:   "full",
	})
	doc := fetch(t, srv, srv.URL+"/docs/openapi.json")
	want := countOperations(t, doc)
	summaries := operationSummaries(t, doc)
	require.Len(t, summaries, want.operations+1, "the cafe has one webhook besides its operations")

	tb := newTab(t, browser, 90*time.Second)
	var title string
	tb.run(t, "loading the page",
		chromedp.Navigate(srv.URL+"/docs/"),
		chromedp.WaitVisible(".swagger-ui .info .title"),
		chromedp.Text(".swagger-ui .info .title", &title))
	assert.Contains(t, title, "Redocly Cafe")
	// One block per operation and tag, plus the webhook's.
	blocks := tb.waitCount(t, ".swagger-ui .opblock", want.blocks+1)
	assert.Equal(t, want.blocks+1, blocks)
	// Expanded operations show their parameters and responses once every
	// $ref in them is resolved.
	tb.waitCount(t, ".swagger-ui .opblock .responses-table", blocks)

	var text string
	tb.eval(t, `document.querySelector(".swagger-ui").innerText`, &text)
	for _, s := range summaries {
		assert.Contains(t, text, s, "operation not rendered")
	}
	assert.NotContains(t, text, "Could not resolve reference")
	assert.NotContains(t, text, "Resolver error")
	var errorBoxes int
	tb.eval(t, `document.querySelectorAll(".swagger-ui .errors-wrapper").length`, &errorBoxes)
	assert.Zero(t, errorBoxes, "Swagger UI shows errors")
	assert.Empty(t, tb.cspViolations(t))
	problems, requests := tb.report()
	assert.Empty(t, problems, "console errors, exceptions, error log entries")
	for _, u := range requests {
		assert.True(t, strings.HasPrefix(u, srv.URL+"/") || strings.HasPrefix(u, "data:"), "request to another server: %s", u)
		assert.False(t, strings.HasSuffix(u, ".yaml"), "the browser fetched a file of the split spec: %s", u)
	}
}

// operationSummaries lists the summary of every operation under paths and
// webhooks.
func operationSummaries(t *testing.T, doc []byte) []string {
	t.Helper()
	var d struct {
		Paths    map[string]map[string]json.RawMessage `json:"paths"`
		Webhooks map[string]map[string]json.RawMessage `json:"webhooks"`
	}
	require.NoError(t, json.Unmarshal(doc, &d))
	var out []string
	for _, items := range []map[string]map[string]json.RawMessage{d.Paths, d.Webhooks} {
		for _, item := range items {
			for method, raw := range item {
				switch method {
				case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				default:
					continue
				}
				var op struct {
					Summary string `json:"summary"`
				}
				require.NoError(t, json.Unmarshal(raw, &op))
				require.NotEmpty(t, op.Summary, "every operation of the cafe has a summary")
				out = append(out, op.Summary)
			}
		}
	}
	return out
}

// TestChromiumMultiFileSwagger serves split specs whose sections are $refs
// to other files. The npm package multi-file-swagger as published (fetched
// at test time: see internal/npmfixture; its info, paths and definitions
// are each a $ref): Swagger UI shows its title, its three operations, each
// expanded with its response, and one model per definition. A spec split
// per path item, whose definitions name each schema file: one User model,
// however many operations refer to User.yaml.
func TestChromiumMultiFileSwagger(t *testing.T) {
	browser := startBrowser(t)
	t.Run("published", func(t *testing.T) {
		pkg := npmfixture.MultiFileSwagger(t)
		checkSplitSpec(t, browser, viewer.Config{FilePathOrSpec: filepath.Join(pkg.Dir, "index.yaml")},
			"Simple API", []string{"/foo", "/bar", "/nested"}, []string{"model-User", "model-SameFileReference"})
	})
	t.Run("per path item", func(t *testing.T) {
		fsys := fstest.MapFS{
			"index.yaml": {Data: []byte("swagger: '2.0'\ninfo: {$ref: ./info.yaml}\npaths:\n  /users: {$ref: ./paths/users.yaml}\n" +
				"  /users/{id}: {$ref: ./paths/user.yaml}\ndefinitions:\n  User: {$ref: ./definitions/User.yaml}\n  Error: {$ref: ./definitions/Error.yaml}\n")},
			"info.yaml": {Data: []byte("title: Users\nversion: '1'\n")},
			"paths/users.yaml": {Data: []byte("get:\n  responses:\n    '200':\n      description: all\n      schema: {type: array, items: {$ref: ../definitions/User.yaml}}\n" +
				"    default: {description: failed, schema: {$ref: ../definitions/Error.yaml}}\n" +
				"post:\n  parameters:\n    - {name: user, in: body, schema: {$ref: ../definitions/User.yaml}}\n  responses:\n    '201': {description: made}\n")},
			"paths/user.yaml": {Data: []byte("get:\n  parameters:\n    - {name: id, in: path, required: true, type: string}\n  responses:\n" +
				"    '200': {description: one, schema: {$ref: ../definitions/User.yaml}}\n")},
			"definitions/User.yaml":  {Data: []byte("type: object\nproperties:\n  name: {type: string}\n")},
			"definitions/Error.yaml": {Data: []byte("type: object\nproperties:\n  message: {type: string}\n")},
		}
		checkSplitSpec(t, browser, viewer.Config{FilePathOrSpec: "index.yaml", FS: fsys},
			"Users", []string{"/users", "/users", "/users/{id}"}, []string{"model-User", "model-Error"})
	})
}

// checkSplitSpec serves cfg and checks that Swagger UI shows the title,
// an expanded operation block for each of paths, and exactly the models
// (by element id) given, with no error.
func checkSplitSpec(t *testing.T, browser context.Context, cfg viewer.Config, title string, paths, models []string) {
	cfg.UIPath, cfg.DocExpansion = "/docs", "full"
	srv := serve(t, cfg)
	want := countOperations(t, fetch(t, srv, srv.URL+"/docs/openapi.json"))
	require.Equal(t, len(paths), want.operations)

	tb := newTab(t, browser, 90*time.Second)
	var shown string
	tb.run(t, "loading the page",
		chromedp.Navigate(srv.URL+"/docs/"),
		chromedp.WaitVisible(".swagger-ui .info .title"),
		chromedp.Text(".swagger-ui .info .title", &shown))
	assert.Contains(t, shown, title)
	assert.Equal(t, want.blocks, tb.waitCount(t, ".swagger-ui .opblock", want.blocks))
	tb.waitCount(t, ".swagger-ui .opblock .responses-table", want.blocks)

	var gotPaths []string
	tb.eval(t, `[...document.querySelectorAll(".swagger-ui .opblock .opblock-summary-path")].map(e => e.textContent.trim().replace(/\u200b/g, ""))`, &gotPaths)
	assert.ElementsMatch(t, paths, gotPaths)
	var gotModels []string
	tb.waitCount(t, ".swagger-ui section.models .model-container", 1)
	tb.eval(t, `[...document.querySelectorAll(".swagger-ui section.models .model-container")].map(e => e.id)`, &gotModels)
	assert.ElementsMatch(t, models, gotModels)

	var text string
	tb.eval(t, `document.querySelector(".swagger-ui").innerText`, &text)
	assert.NotContains(t, text, "No operations defined in spec!")
	assert.NotContains(t, text, "Could not resolve reference")
	assert.NotContains(t, text, "Resolver error")
	tb.assertClean(t)
}
