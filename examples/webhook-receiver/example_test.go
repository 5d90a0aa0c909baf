package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// The receiver prints a delivery signed with the customer's secret once,
// acknowledges its repeat without printing it, and refuses a forgery.
func Example() {
	secret := exporttask.CustomerWebhookSecret([]byte("master"), "acme") // what GET /webhook-secret returns
	now := time.Date(2026, 11, 23, 14, 40, 2, 0, time.UTC)
	rc := &receiver{secret: secret, tolerance: time.Minute, now: func() time.Time { return now },
		seen: newSeenSet(rememberedDeliveries), log: slog.New(slog.NewTextHandler(io.Discard, nil)), out: os.Stdout}

	body := []byte(`{"event":"TASK_STARTED","timestamp":"2026-11-23T14:40:01.000Z",` +
		`"data":{"id":1,"status":"IN_PROGRESS","progress":0,"artifacts":[]}}`)
	send := func(id, key string) {
		req := httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(body))
		req.Header.Set(exporttask.DeliveryHeader, id)
		req.Header.Set(exporttask.SignatureHeader, exporttask.SignWebhook(key, id, now, body))
		w := httptest.NewRecorder()
		rc.ServeHTTP(w, req)
		fmt.Println("answered", w.Code)
	}
	send("5", secret)
	send("5", secret) // a retry of the same delivery
	send("6", exporttask.CustomerWebhookSecret([]byte("guess"), "acme"))
	// Output:
	// 2026-11-23T14:40:01.000Z delivery 5: TASK_STARTED task 1 IN_PROGRESS 0% artifacts: none
	// answered 204
	// answered 204
	// answered 401
}
