package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

var (
	testSecret = exporttask.CustomerWebhookSecret([]byte("master"), "acme")
	testNow    = time.Date(2026, 11, 23, 14, 40, 2, 0, time.UTC)
	testBody   = []byte(`{"event":"TASK_COMPLETED","timestamp":"2026-11-23T14:40:01.500Z","data":{"id":1,"status":"COMPLETED","progress":100,` +
		`"artifacts":[{"name":"r.gpkg","type":"GPKG","size":1234567}],"webhook":{"url":"http://127.0.0.1:8090/hooks","events":["TASK_COMPLETED"]},` +
		`"links":[{"rel":"self","href":"/export-tasks/1"}]}}`)
	testLine = "2026-11-23T14:40:01.500Z delivery 7: TASK_COMPLETED task 1 COMPLETED 100% artifacts: r.gpkg (GPKG, 1.23 MB)\n"
)

func newTestReceiver(out, log *bytes.Buffer) *receiver {
	return &receiver{
		secret: testSecret, tolerance: time.Minute, now: func() time.Time { return testNow },
		seen: newSeenSet(100), log: slog.New(slog.NewTextHandler(log, nil)), out: out,
	}
}

// post sends one delivery to rc through the mux run uses.
func post(rc *receiver, id, signature string, body []byte) *httptest.ResponseRecorder {
	mux := http.NewServeMux()
	mux.Handle("POST /", rc)
	req := httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(body))
	if id != "" {
		req.Header.Set(exporttask.DeliveryHeader, id)
	}
	if signature != "" {
		req.Header.Set(exporttask.SignatureHeader, signature)
	}
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, req)
	return w
}

func TestReceiverPrintsAVerifiedDelivery(t *testing.T) {
	var out, log bytes.Buffer
	w := post(newTestReceiver(&out, &log), "7", exporttask.SignWebhook(testSecret, "7", testNow, testBody), testBody)
	assert.Equal(t, http.StatusNoContent, w.Code)
	assert.Equal(t, testLine, out.String())
	assert.Empty(t, log.String())
}

func TestReceiverDropsARepeatedDelivery(t *testing.T) {
	var out, log bytes.Buffer
	rc := newTestReceiver(&out, &log)
	// A retry of delivery 7 is signed again, later.
	require.Equal(t, http.StatusNoContent, post(rc, "7", exporttask.SignWebhook(testSecret, "7", testNow, testBody), testBody).Code)
	w := post(rc, "7", exporttask.SignWebhook(testSecret, "7", testNow.Add(time.Second), testBody), testBody)
	assert.Equal(t, http.StatusNoContent, w.Code, "a repeat is acknowledged, so the server stops retrying")
	assert.Equal(t, testLine, out.String(), "printed once")
	assert.Contains(t, log.String(), `msg="duplicate delivery ignored: already printed" delivery=7`)

	// Another delivery id with the same body is another delivery.
	require.Equal(t, http.StatusNoContent, post(rc, "8", exporttask.SignWebhook(testSecret, "8", testNow, testBody), testBody).Code)
	assert.Equal(t, 2, strings.Count(out.String(), "\n"))
}

func TestReceiverRefuses(t *testing.T) {
	forger := exporttask.CustomerWebhookSecret([]byte("master"), "mallory")
	notJSON := []byte("not json")
	for _, tc := range []struct {
		name    string
		id, sig string
		body    []byte
		status  int
		logged  string
	}{
		{"forged with another customer's secret", "7", exporttask.SignWebhook(forger, "7", testNow, testBody), testBody,
			http.StatusUnauthorized, "delivery refused: signature does not match"},
		{"body altered", "7", exporttask.SignWebhook(testSecret, "7", testNow, testBody), bytes.Replace(testBody, []byte("COMPLETED"), []byte("FAILED"), 1),
			http.StatusUnauthorized, "delivery refused: signature does not match"},
		{"delivery id altered", "8", exporttask.SignWebhook(testSecret, "7", testNow, testBody), testBody,
			http.StatusUnauthorized, "delivery refused: signature does not match"},
		{"signed an hour ago", "7", exporttask.SignWebhook(testSecret, "7", testNow.Add(-time.Hour), testBody), testBody,
			http.StatusUnauthorized, "delivery refused: signature timestamp too far"},
		{"signed in the future", "7", exporttask.SignWebhook(testSecret, "7", testNow.Add(2*time.Minute), testBody), testBody,
			http.StatusUnauthorized, "delivery refused: signature timestamp too far"},
		{"no signature", "7", "", testBody, http.StatusBadRequest, "delivery refused: malformed or missing signature headers"},
		{"no delivery id", "", exporttask.SignWebhook(testSecret, "7", testNow, testBody), testBody,
			http.StatusBadRequest, "delivery refused: malformed or missing signature headers"},
		{"malformed signature", "7", "t=1,v2=zz", testBody, http.StatusBadRequest, "delivery refused: malformed or missing signature headers"},
		{"signed, but not an event", "7", exporttask.SignWebhook(testSecret, "7", testNow, notJSON), notJSON,
			http.StatusBadRequest, "delivery refused: signed body is not an event payload"},
		{"too large", "7", "t=1,v2=00", bytes.Repeat([]byte(" "), maxBody+1), http.StatusRequestEntityTooLarge, "delivery refused: cannot read the body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, log bytes.Buffer
			w := post(newTestReceiver(&out, &log), tc.id, tc.sig, tc.body)
			assert.Equal(t, tc.status, w.Code)
			assert.Empty(t, out.String(), "nothing printed")
			assert.Contains(t, log.String(), "level=WARN")
			assert.Contains(t, log.String(), tc.logged)
			assert.Contains(t, log.String(), fmt.Sprintf("status=%d", tc.status))
		})
	}
}

func TestReceiverRefusedDeliveryIsNotRemembered(t *testing.T) {
	// A forger who sends a delivery id first cannot make the receiver drop
	// the genuine delivery as a repeat.
	var out, log bytes.Buffer
	rc := newTestReceiver(&out, &log)
	forger := exporttask.CustomerWebhookSecret([]byte("master"), "mallory")
	require.Equal(t, http.StatusUnauthorized, post(rc, "7", exporttask.SignWebhook(forger, "7", testNow, testBody), testBody).Code)
	require.Equal(t, http.StatusNoContent, post(rc, "7", exporttask.SignWebhook(testSecret, "7", testNow, testBody), testBody).Code)
	assert.Equal(t, testLine, out.String())
}

func TestReceiverAnswersOnlyPOST(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("POST /", newTestReceiver(new(bytes.Buffer), new(bytes.Buffer)))
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/hooks", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Equal(t, "POST", w.Header().Get("Allow"))
}
