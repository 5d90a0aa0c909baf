package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer"
)

// api is a loopback API server that "Try it out" calls from the page,
// which is on another origin (another port): it answers every path with a
// JSON greeting naming itself, and allows any origin (CORS).
type api struct {
	srv  *httptest.Server
	name string
	hits atomic.Int64
}

func startAPI(t *testing.T, name string) *api {
	t.Helper()
	a := &api{name: name}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if req.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Headers", "*")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		a.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted) // not 200: the status shown must be this server's
		fmt.Fprintf(w, `{"greeting":"hello from %s","path":%q}`, a.name, req.URL.Path)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

// port returns the server's port.
func (a *api) port(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(a.srv.URL)
	require.NoError(t, err)
	return u.Port()
}

// operation is the JSON of a GET operation with one JSON response.
func operation(id, servers string) string {
	s := `"operationId":"` + id + `","responses":{"202":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}}}`
	if servers != "" {
		s += `,"servers":` + servers
	}
	return "{" + s + "}"
}

// TestTryItOut clicks "Try it out" and "Execute" in Chromium against API
// servers on other origins, declared with a server variable and at path and
// operation level, and checks that the response shows in the UI with no
// policy violation: the page's connect-src allows each of them.
func TestTryItOut(t *testing.T) {
	browser := startBrowser(t)

	t.Run("server variable", func(t *testing.T) {
		a := startAPI(t, "variable")
		doc := `{"openapi":"3.0.3","info":{"title":"Variable server","version":"1"},
"servers":[{"url":"http://127.0.0.1:{port}/v1","variables":{"port":{"default":"` + a.port(t) + `"}}}],
"paths":{"/greeting":{"get":` + operation("greet", "") + `}}}`
		srv := serve(t, viewer.Config{FilePathOrSpec: []byte(doc), UIPath: "/docs"})
		tb := newTab(t, browser, 90*time.Second)
		tb.load(t, srv.URL+"/docs/")
		tb.execute(t, "operations-default-greet", "hello from variable", "/v1/greeting")
		assert.Equal(t, int64(1), a.hits.Load(), "the API server got the request")
		tb.assertClean(t)
	})

	t.Run("path and operation servers", func(t *testing.T) {
		p, o := startAPI(t, "path"), startAPI(t, "operation")
		doc := `{"openapi":"3.1.0","info":{"title":"Servers per path","version":"1"},
"servers":[{"url":"http://127.0.0.1:1/nothing-here"}],
"paths":{
 "/p":{"servers":[{"url":"` + p.srv.URL + `/base"}],"get":` + operation("fromPath", "") + `},
 "/o":{"get":` + operation("fromOperation", `[{"url":"`+o.srv.URL+`/op"}]`) + `}}}`
		srv := serve(t, viewer.Config{FilePathOrSpec: []byte(doc), UIPath: "/docs"})
		tb := newTab(t, browser, 90*time.Second)
		tb.load(t, srv.URL+"/docs/")
		tb.execute(t, "operations-default-fromPath", "hello from path", "/base/p")
		tb.execute(t, "operations-default-fromOperation", "hello from operation", "/op/o")
		assert.Equal(t, int64(1), p.hits.Load())
		assert.Equal(t, int64(1), o.hits.Load())
		tb.assertClean(t)
	})
}

// load opens the page and waits for Swagger UI to render its operations.
func (tb *tab) load(t *testing.T, pageURL string) {
	t.Helper()
	tb.run(t, "loading "+pageURL, chromedp.Navigate(pageURL))
	tb.waitCount(t, ".swagger-ui .opblock", 1)
}

// execute opens the operation block with the given element id, clicks
// "Try it out" then "Execute", and waits until the live response shows
// the status 202 and a body containing want (and the request URL ending
// with path). It fails with what the response area shows when the
// deadline passes first (for example "Failed to fetch").
func (tb *tab) execute(t *testing.T, blockID, want, path string) {
	t.Helper()
	block := fmt.Sprintf("document.getElementById(%q)", blockID)
	click := func(what, sel string) {
		t.Helper()
		tb.waitTrue(t, fmt.Sprintf("!!(%s && %s.querySelector(%q))", block, block, sel))
		tb.eval(t, fmt.Sprintf("(%s.querySelector(%q).click(), true)", block, sel), new(bool))
		t.Logf("%s: clicked %s", blockID, what)
	}
	tb.waitTrue(t, "!!"+block)
	tb.eval(t, fmt.Sprintf(`(() => {
  const b = %s;
  if (!b.classList.contains("is-open")) (b.querySelector(".opblock-summary-control") || b.querySelector(".opblock-summary")).click();
  return true;
})()`, block), new(bool))
	click("Try it out", ".try-out__btn")
	click("Execute", ".execute")

	responseText := fmt.Sprintf(`((%s.querySelector(".live-responses-table") || {}).textContent || "")`, block)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var text string
		tb.eval(t, responseText, &text)
		if strings.Contains(text, want) {
			assert.Contains(t, text, "202", "the status the API server sent")
			break
		}
		if time.Now().After(deadline) {
			var area string
			tb.eval(t, fmt.Sprintf(`((%s.querySelector(".responses-wrapper") || {}).textContent || "")`, block), &area)
			require.Failf(t, "no response shown", "%s: want %q in the live response; the responses area shows: %s\npolicy violations: %v",
				blockID, want, area, tb.cspViolations(t))
		}
		select {
		case <-tb.ctx.Done():
			require.FailNow(t, "tab deadline passed", "%s: %v", blockID, tb.ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	var requestURL string
	tb.eval(t, fmt.Sprintf(`((%s.querySelector(".request-url pre") || {}).textContent || "")`, block), &requestURL)
	assert.True(t, strings.HasSuffix(strings.TrimSpace(requestURL), path), "request URL %q ends with %s", requestURL, path)
}

// assertClean checks that the tab saw no policy violation, console error
// or exception.
func (tb *tab) assertClean(t *testing.T) {
	t.Helper()
	assert.Empty(t, tb.cspViolations(t), "securitypolicyviolation events")
	problems, _ := tb.report()
	assert.Empty(t, problems, "console errors, exceptions, error log entries")
}
