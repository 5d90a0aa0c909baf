package browsertest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/exportserver/exportservertest"
)

// tryKey is the API key of the example server the "Try it out" test runs.
const tryKey = "try-it-out-key-0123456789"

// startExportServer runs the reference server (examples/server's code, the
// real exporter over the demo catalog) on loopback and returns its URL.
func startExportServer(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	return exportservertest.Start(t, "-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "tasks.db"),
		"-catalog", filepath.Join(dir, "catalog"), "-keys", tryKey+"=acme")
}

// TestExportTryItOutTwice uses the export API's docs page as a new user
// does: authorize with the key, "Try it out" on the create operation with
// its example body, execute, change the body and execute again, then read
// the second task. Each create must be 201 (a parameter whose reuse
// changes the outcome, such as Idempotency-Key, must not be pre-filled)
// and the read 200.
func TestExportTryItOutTwice(t *testing.T) {
	browser := startBrowser(t)
	base := startExportServer(t)
	tb := newTab(t, browser, 120*time.Second)
	tb.load(t, base+"/docs/")
	tb.eval(t, fmt.Sprintf(`(window.ui.preauthorizeApiKey("apiKey", %q), true)`, tryKey), new(bool))

	const create = "operations-Tasks-createExportTask"
	tb.openTryItOut(t, create)
	first := tb.executeStatus(t, create)
	assert.Equal(t, "201", first.status, "first create: %s", first.body)

	// Another body: the request body's second example, picked from its
	// drop-down as a user does.
	tb.pickExample(t, create, "demWholeRecord")
	second := tb.executeStatus(t, create)
	assert.Equal(t, "201", second.status, "second create: %s", second.body)
	var task struct {
		ID     int64  `json:"id"`
		Domain string `json:"domain"`
	}
	require.NoError(t, json.Unmarshal([]byte(second.body), &task), second.body)
	assert.Equal(t, "DEM", task.Domain, "the second body was sent")
	assert.Equal(t, int64(2), task.ID, "a new task, not the first one again")

	const get = "operations-Tasks-getTaskById"
	tb.openTryItOut(t, get)
	tb.setParam(t, get, "id", fmt.Sprint(task.ID))
	read := tb.executeStatus(t, get)
	assert.Equal(t, "200", read.status, "read: %s", read.body)
	assert.Contains(t, read.body, `"domain": "DEM"`)
	tb.assertClean(t)
}

// liveResponse is what an operation block shows of the last response.
type liveResponse struct{ status, body string }

// openTryItOut opens the operation block and clicks "Try it out".
func (tb *tab) openTryItOut(t *testing.T, blockID string) {
	t.Helper()
	block := fmt.Sprintf("document.getElementById(%q)", blockID)
	tb.waitTrue(t, "!!"+block)
	tb.eval(t, fmt.Sprintf(`(() => {
  const b = %s;
  if (!b.classList.contains("is-open")) (b.querySelector(".opblock-summary-control") || b.querySelector(".opblock-summary")).click();
  return true;
})()`, block), new(bool))
	tb.waitTrue(t, fmt.Sprintf("!!%s.querySelector('.try-out__btn')", block))
	tb.eval(t, fmt.Sprintf("(%s.querySelector('.try-out__btn').click(), true)", block), new(bool))
	tb.waitTrue(t, fmt.Sprintf("!!%s.querySelector('.execute')", block))
}

// pickExample chooses the request body example named name in the block's
// examples drop-down, and waits until the body text area shows it.
func (tb *tab) pickExample(t *testing.T, blockID, name string) {
	t.Helper()
	sel := fmt.Sprintf("[...document.getElementById(%q).querySelectorAll('.opblock-section-request-body select')]"+
		".find(s => [...s.options].some(o => o.value === %q))", blockID, name)
	tb.waitTrue(t, "!!"+sel)
	var before string
	area := fmt.Sprintf("document.getElementById(%q).querySelector('textarea.body-param__text')", blockID)
	tb.eval(t, area+".value", &before)
	v, err := json.Marshal(name)
	require.NoError(t, err)
	tb.eval(t, fmt.Sprintf(`(() => {
  const el = %s;
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(el, %s);
  el.dispatchEvent(new Event("change", {bubbles: true}));
  return true;
})()`, sel, v), new(bool))
	quoted, err := json.Marshal(before)

	require.NoError(t, err)
	tb.waitTrue(t, fmt.Sprintf("%s.value !== %s", area, quoted))
}

// setParam types value into the block's parameter input named name.
func (tb *tab) setParam(t *testing.T, blockID, name, value string) {
	t.Helper()
	sel := fmt.Sprintf(`document.getElementById(%q).querySelector('tr[data-param-name=%q] input')`, blockID, name)
	tb.waitTrue(t, "!!"+sel)
	tb.setValue(t, sel, "HTMLInputElement", value)
}

// setValue sets a React-controlled field through its native setter, fires
// the input event React listens to, and leaves the field, as a user
// moving on to "Execute" does.
func (tb *tab) setValue(t *testing.T, sel, proto, value string) {
	t.Helper()
	v, err := json.Marshal(value)
	require.NoError(t, err)
	tb.eval(t, fmt.Sprintf(`(() => {
  const el = %s;
  el.focus();
  Object.getOwnPropertyDescriptor(%s.prototype, "value").set.call(el, %s);
  el.dispatchEvent(new Event("input", {bubbles: true}));
  el.blur(); // a debounced field passes its value on at once when it loses focus
  return true;
})()`, sel, proto, v), new(bool))
}

// executeStatus clicks "Execute" and waits for a new live response; it
// returns its status and body.
func (tb *tab) executeStatus(t *testing.T, blockID string) liveResponse {
	t.Helper()
	block := fmt.Sprintf("document.getElementById(%q)", blockID)
	// Forget the previous response, so that the one awaited is new.
	tb.eval(t, fmt.Sprintf(`(() => { const c = %s.querySelector(".btn-clear"); if (c) c.click(); return true; })()`, block), new(bool))
	tb.waitTrue(t, fmt.Sprintf("!%s.querySelector('.live-responses-table')", block))
	tb.eval(t, fmt.Sprintf("(%s.querySelector('.execute').click(), true)", block), new(bool))
	tb.waitTrue(t, fmt.Sprintf("!!%s.querySelector('.live-responses-table tbody .response-col_status')", block))
	var r struct {
		Status string `json:"status"`
		Body   string `json:"body"`
	}
	tb.eval(t, fmt.Sprintf(`(() => {
  const t = %s.querySelector(".live-responses-table");
  const body = t.querySelector("tbody .response-col_description pre");
  return {status: t.querySelector("tbody .response-col_status").textContent.trim(), body: body ? body.textContent : ""};
})()`, block), &r)
	return liveResponse{status: r.Status, body: r.Body}
}
