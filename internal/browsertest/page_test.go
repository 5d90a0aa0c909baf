package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// cspRecorder runs in every document before the page's own scripts (CDP
// init scripts are not subject to the page's policy) and keeps every
// securitypolicyviolation event the document sees.
const cspRecorder = `window.__cspViolations = [];
window.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "(inline)") +
    " at " + e.sourceFile + ":" + e.lineNumber + " (" + e.disposition + ")");
}, true);`

// tab is one browser tab with what it reported while loading a page.
type tab struct {
	ctx context.Context

	mu       sync.Mutex
	problems []string // console errors, exceptions, error log entries, policy reports
	requests []string // every URL the tab requested
}

// newTab opens a tab in the browser that records console errors, uncaught
// exceptions, error log entries (failed loads, policy violations) and the
// URLs it requests. Every action in it must finish within timeout.
func newTab(t *testing.T, browserCtx context.Context, timeout time.Duration) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancelTimeout)
	tb := &tab{ctx: ctx}
	chromedp.ListenTarget(ctx, tb.record)
	require.NoError(t, chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(cspRecorder).Do(ctx)
		return err
	})), "installing the policy-violation recorder")
	return tb
}

func (tb *tab) record(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
			tb.problems = append(tb.problems, "console."+string(ev.Type)+": "+remoteArgs(ev.Args))
		} else if text := remoteArgs(ev.Args); mentionsPolicy(text) {
			tb.problems = append(tb.problems, "console."+string(ev.Type)+": "+text)
		}
	case *runtime.EventExceptionThrown:
		tb.problems = append(tb.problems, "uncaught exception: "+ev.ExceptionDetails.Error())
	case *log.EventEntryAdded:
		e := ev.Entry
		if e.Level == log.LevelError || mentionsPolicy(e.Text) {
			tb.problems = append(tb.problems, fmt.Sprintf("log (%s, %s): %s %s", e.Source, e.Level, e.Text, e.URL))
		}
	case *network.EventRequestWillBeSent:
		tb.requests = append(tb.requests, ev.Request.URL)
	}
}

// mentionsPolicy reports whether a message is Chromium's report of a
// Content-Security-Policy violation (enforced or report-only).
func mentionsPolicy(text string) bool {
	return strings.Contains(text, "Content Security Policy") || strings.Contains(text, "Content-Security-Policy")
}

func remoteArgs(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// run runs actions in the tab.
func (tb *tab) run(t *testing.T, what string, actions ...chromedp.Action) {
	t.Helper()
	require.NoError(t, chromedp.Run(tb.ctx, actions...), what)
}

// eval evaluates a JavaScript expression in the page and decodes its value
// into out.
func (tb *tab) eval(t *testing.T, expr string, out any) {
	t.Helper()
	tb.run(t, "evaluating "+expr, chromedp.Evaluate(expr, out))
}

// waitCount polls until the page has at least want elements matching the CSS
// selector sel and returns the count then; it fails the test when the tab's
// deadline passes first, naming the count it reached.
func (tb *tab) waitCount(t *testing.T, sel string, want int) int {
	t.Helper()
	expr := fmt.Sprintf("document.querySelectorAll(%q).length", sel)
	var n int
	for {
		if err := chromedp.Run(tb.ctx, chromedp.Evaluate(expr, &n)); err != nil {
			require.NoError(t, err, "waiting for %d elements %q: the page has %d", want, sel, n)
		}
		if n >= want {
			return n
		}
		select {
		case <-tb.ctx.Done():
			require.Failf(t, "page not rendered in time", "waiting for %d elements %q: the page has %d (%v)", want, sel, n, tb.ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// cspViolations returns what the recorder saw in the current document.
func (tb *tab) cspViolations(t *testing.T) []string {
	t.Helper()
	var out []string
	tb.eval(t, "window.__cspViolations || []", &out)
	return out
}

// report returns the problems and requests recorded so far.
func (tb *tab) report() (problems, requests []string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.problems...), append([]string(nil), tb.requests...)
}

// opCounts is what a document should make Swagger UI render: one operation
// block per operation and tag (an operation with two tags is shown under
// both; one without tags under "default"), and one section per tag, used by
// an operation or declared in the top-level "tags" (Swagger UI shows a
// declared tag even when no operation uses it: GitHub's "desktop").
type opCounts struct {
	operations int // operations in the document
	blocks     int // operation blocks Swagger UI shows
	tags       int // tag sections
}

// countOperations counts the operations under "paths" of a JSON document.
func countOperations(t *testing.T, doc []byte) opCounts {
	t.Helper()
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
		Tags  []struct {
			Name string `json:"name"`
		} `json:"tags"`
	}
	require.NoError(t, json.Unmarshal(doc, &d), "decoding the served document")
	methods := map[string]bool{"get": true, "put": true, "post": true, "delete": true,
		"options": true, "head": true, "patch": true, "trace": true}
	var c opCounts
	tags := map[string]bool{}
	for _, tag := range d.Tags {
		tags[tag.Name] = true
	}
	for _, item := range d.Paths {
		for key, raw := range item {
			if !methods[key] {
				continue
			}
			var op struct {
				Tags []string `json:"tags"`
			}
			require.NoError(t, json.Unmarshal(raw, &op), "decoding an operation")
			c.operations++
			if len(op.Tags) == 0 {
				op.Tags = []string{"default"}
			}
			c.blocks += len(op.Tags)
			for _, tag := range op.Tags {
				tags[tag] = true
			}
		}
	}
	c.tags = len(tags)
	return c
}

// waitTrue polls a JavaScript expression until it is true; it fails the
// test when the tab's deadline passes first.
func (tb *tab) waitTrue(t *testing.T, expr string) {
	t.Helper()
	for {
		var ok bool
		if err := chromedp.Run(tb.ctx, chromedp.Evaluate(expr, &ok)); err != nil {
			require.NoError(t, err, "waiting for %s", expr)
		}
		if ok {
			return
		}
		select {
		case <-tb.ctx.Done():
			require.Failf(t, "page not ready in time", "waiting for %s (%v)", expr, tb.ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
