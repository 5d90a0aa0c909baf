package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/server"
)

// statusReceiver answers every webhook with the status it holds, and
// records the delivery ids it was sent.
type statusReceiver struct {
	status atomic.Int64
	ids    chan string
}

func (rc *statusReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case rc.ids <- r.Header.Get(exporttask.DeliveryHeader):
	default:
	}
	w.WriteHeader(int(rc.status.Load()))
}

// deliveries lists task id's deliveries with key, checking the answer.
func (h *harness) deliveries(t *testing.T, id int64, query, key string) ([]exporttask.WebhookDelivery, *http.Response) {
	t.Helper()
	resp, body := h.do(t, request{method: http.MethodGet, path: "/export-tasks/" + strconv.FormatInt(id, 10) + "/deliveries" + query, key: key})
	require.Equal(t, http.StatusOK, resp.StatusCode, "body: %s", body)
	var ds []exporttask.WebhookDelivery
	require.NoError(t, json.Unmarshal(body, &ds))
	return ds, resp
}

// waitDeliveries polls task id's deliveries until ok holds for them.
func (h *harness) waitDeliveries(t *testing.T, id int64, ok func([]exporttask.WebhookDelivery) bool) []exporttask.WebhookDelivery {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		ds, _ := h.deliveries(t, id, "?limit=100", readKey)
		if ok(ds) {
			return ds
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries of task %d never reached the wanted state; last: %+v", id, ds)
		}
		<-tick.C
	}
}

func allFinished(ds []exporttask.WebhookDelivery) bool {
	for _, d := range ds {
		if d.Status == exporttask.DeliveryStatusPending {
			return false
		}
	}
	return len(ds) > 0
}

// TestDeliveriesListAndRedeliver: a customer lists its task's deliveries
// with their outcome (status code, never internal text), pages through
// them, and asks for a redelivery, which is refused while one is pending.
func TestDeliveriesListAndRedeliver(t *testing.T) {
	rc := &statusReceiver{ids: make(chan string, 16)}
	rc.status.Store(http.StatusGone)
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	h := newHarness(t, exporttasktest.WithTaskDuration(50*time.Millisecond), exporttasktest.WithWebhookBackoff(20*time.Millisecond))
	req := h.sampleRequest(1)
	hookURL := hook.URL + "/hooks?token=abc"
	req.Webhook = []exporttask.Webhook{{URL: hookURL, Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}}}
	task := h.create(t, req)

	// 410 is given up at once.
	ds := h.waitDeliveries(t, task.ID, func(ds []exporttask.WebhookDelivery) bool { return len(ds) == 2 && allFinished(ds) })
	for i, ev := range []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted} {
		d := ds[i]
		assert.Equal(t, ev, d.Event)
		assert.Equal(t, hookURL, d.URL)
		assert.Equal(t, exporttask.DeliveryStatusFailed, d.Status)
		assert.Equal(t, 1, d.Attempts)
		assert.Equal(t, http.StatusGone, d.LastStatusCode)
		assert.Equal(t, exporttask.DeliveryErrorHTTPStatus, d.LastError)
		assert.False(t, d.LastAttemptAt.IsZero())
		assert.True(t, d.NextAttemptAt.IsZero())
	}
	assert.Less(t, ds[0].ID, ds[1].ID, "oldest first")

	// Paging: limit 1 gives a Link to the second page, which is the last.
	page, resp := h.deliveries(t, task.ID, "?limit=1", readKey)
	require.Equal(t, ds[:1], page)
	link := resp.Header.Get("Link")
	require.True(t, strings.HasPrefix(link, "</export-tasks/"+strconv.FormatInt(task.ID, 10)+"/deliveries?"), link)
	next := strings.TrimSuffix(strings.TrimPrefix(link, "</export-tasks/"+strconv.FormatInt(task.ID, 10)+"/deliveries"), `>; rel="next"`)
	page, resp = h.deliveries(t, task.ID, next, readKey)
	assert.Equal(t, ds[1:], page)
	assert.Empty(t, resp.Header.Get("Link"), "the last page")

	path := "/export-tasks/" + strconv.FormatInt(task.ID, 10) + "/deliveries"
	redeliver := func(deliveryID int64) string {
		return path + "/" + strconv.FormatInt(deliveryID, 10) + "/redeliver"
	}
	// Errors, all in the one problem shape.
	resp, body := h.do(t, request{method: http.MethodGet, path: path + "?limit=0&cursor=YjQx", key: readKey})
	p := assertProblem(t, resp, body, http.StatusBadRequest, exporttask.ProblemTypeValidation)
	require.Len(t, p.Errors, 2, "every bad parameter is named")
	assert.Equal(t, "limit", p.Errors[0].Parameter)
	assert.Equal(t, "cursor", p.Errors[1].Parameter)
	resp, body = h.do(t, request{method: http.MethodPost, path: "/export-tasks/01/deliveries/+2/redeliver", key: h.Key})
	p = assertProblem(t, resp, body, http.StatusBadRequest, exporttask.ProblemTypeValidation)
	require.Len(t, p.Errors, 2)
	assert.Equal(t, "id", p.Errors[0].Parameter)
	assert.Equal(t, "deliveryId", p.Errors[1].Parameter)
	resp, body = h.do(t, request{method: http.MethodGet, path: path, key: otherKey})
	assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank)
	resp, body = h.do(t, request{method: http.MethodPost, path: redeliver(ds[1].ID), key: otherKey})
	p = assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank)
	assert.Contains(t, p.Detail, "No export task", "another customer's task")
	resp, body = h.do(t, request{method: http.MethodPost, path: redeliver(ds[1].ID + 1000), key: h.Key})
	p = assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank)
	assert.Contains(t, p.Detail, "no delivery")
	resp, body = h.do(t, request{method: http.MethodPost, path: redeliver(ds[1].ID), key: readKey})
	assertProblem(t, resp, body, http.StatusForbidden, exporttask.ProblemTypeBlank)
	resp, body = h.do(t, request{method: http.MethodGet, path: path, key: writeKey})
	assertProblem(t, resp, body, http.StatusForbidden, exporttask.ProblemTypeBlank)
	resp, body = h.do(t, request{method: http.MethodGet, path: redeliver(ds[1].ID), key: h.Key})
	assertProblem(t, resp, body, http.StatusMethodNotAllowed, exporttask.ProblemTypeBlank)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))

	// The receiver now fails with 503: the redelivery stays pending, and a
	// second one is refused.
	rc.status.Store(http.StatusServiceUnavailable)
	for len(rc.ids) > 0 {
		<-rc.ids
	}
	resp, body = h.do(t, request{method: http.MethodPost, path: redeliver(ds[1].ID), key: writeKey})
	require.Equal(t, http.StatusAccepted, resp.StatusCode, "body: %s", body)
	assert.Equal(t, path, resp.Header.Get("Location"))
	var again exporttask.WebhookDelivery
	require.NoError(t, json.Unmarshal(body, &again))
	assert.Greater(t, again.ID, ds[1].ID)
	assert.Equal(t, exporttask.DeliveryStatusPending, again.Status)
	assert.Equal(t, exporttask.EventCompleted, again.Event)
	assert.Equal(t, hookURL, again.URL)
	assert.Zero(t, again.Attempts)
	select {
	case id := <-rc.ids:
		assert.Equal(t, strconv.FormatInt(again.ID, 10), id, "the redelivery has its own id")
	case <-time.After(20 * time.Second):
		t.Fatal("the redelivery was not attempted")
	}
	resp, body = h.do(t, request{method: http.MethodPost, path: redeliver(ds[1].ID), key: writeKey})
	assertProblem(t, resp, body, http.StatusConflict, exporttask.ProblemTypeDeliveryPending)
	resp, body = h.do(t, request{method: http.MethodPost, path: redeliver(again.ID), key: writeKey})
	assertProblem(t, resp, body, http.StatusConflict, exporttask.ProblemTypeDeliveryPending)
	resp, body = h.do(t, request{method: http.MethodPost, path: redeliver(ds[0].ID), key: writeKey})
	assert.Equal(t, http.StatusAccepted, resp.StatusCode, "another event is not held back: %s", body)

	// Once the receiver accepts, the redelivery is delivered.
	rc.status.Store(http.StatusNoContent)
	ds = h.waitDeliveries(t, task.ID, allFinished)
	require.Len(t, ds, 4)
	got := ds[2]
	if got.ID != again.ID {
		got = ds[3]
	}
	require.Equal(t, again.ID, got.ID)
	assert.Equal(t, exporttask.DeliveryStatusDelivered, got.Status)
	assert.GreaterOrEqual(t, got.Attempts, 2)
	assert.Zero(t, got.LastStatusCode, "a delivered delivery shows no failure")
}

// TestRedeliverRateLimit: redeliveries have a bucket per customer of
// their own, at the create rate: creates do not use it up, and a
// redelivery over it is answered 429 with Retry-After before the store is
// asked.
func TestRedeliverRateLimit(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond), exporttasktest.WithServerConfig(func(c *server.Config) {
		c.CreateRate, c.CreateBurst = 0.001, 2
	}))
	var last []int64
	for n := range 2 { // the create bucket is empty after these
		task := h.create(t, h.sampleRequest(n))
		ds := h.waitDeliveries(t, task.ID, allFinished)
		last = append(last, ds[len(ds)-1].ID)
		redeliverPath := "/export-tasks/" + strconv.FormatInt(task.ID, 10) + "/deliveries/" + strconv.FormatInt(ds[0].ID, 10) + "/redeliver"
		resp, body := h.do(t, request{method: http.MethodPost, path: redeliverPath, key: h.Key})
		require.Equal(t, http.StatusAccepted, resp.StatusCode, "redelivery %d: %s", n, body)
	}
	resp, body := h.do(t, request{method: http.MethodPost, path: "/export-tasks/1/deliveries/" + strconv.FormatInt(last[0], 10) + "/redeliver", key: h.Key})
	p := assertProblem(t, resp, body, http.StatusTooManyRequests, exporttask.ProblemTypeBlank)
	assert.Contains(t, p.Detail, "too many redeliveries")
	retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	require.NoError(t, err)
	assert.InDelta(t, 1000, retry, 1)
	resp, body = h.do(t, request{method: http.MethodPost, path: "/export-tasks/1/deliveries/" + strconv.FormatInt(last[0], 10) + "/redeliver", key: otherKey})
	assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank) // its own bucket; not its task
}
