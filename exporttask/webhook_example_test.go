package exporttask_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// A receiver checks every delivery's signature against the raw body before
// trusting it.
func ExampleVerifyWebhook() {
	// The customer's secret, as GET /webhook-secret returns it.
	secret := exporttask.CustomerWebhookSecret([]byte("server master secret"), "acme")
	body := []byte(`{"event":"TASK_COMPLETED","timestamp":"2026-11-21T09:30:00.000Z","data":{"id":1}}`)
	sent := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	header := exporttask.SignWebhook(secret, "17", sent, body) // 17: the X-Export-Delivery header
	fmt.Println(header[:13])

	err := exporttask.VerifyWebhook(secret, header, "17", body, sent.Add(2*time.Second), 5*time.Minute)
	fmt.Println("fresh:", err)
	err = exporttask.VerifyWebhook(secret, header, "17", body, sent.Add(time.Hour), 5*time.Minute)
	fmt.Println("replayed an hour later:", errors.Is(err, exporttask.ErrSignatureStale))
	err = exporttask.VerifyWebhook(secret, header, "17", []byte(`{"event":"TASK_FAILED"}`), sent, 5*time.Minute)
	fmt.Println("tampered:", errors.Is(err, exporttask.ErrSignatureMismatch))
	err = exporttask.VerifyWebhook(secret, header, "18", body, sent, 5*time.Minute)
	fmt.Println("delivery id changed:", errors.Is(err, exporttask.ErrSignatureMismatch))
	// Output:
	// t=1795253400,
	// fresh: <nil>
	// replayed an hour later: true
	// tampered: true
	// delivery id changed: true
}

// A webhook endpoint: it reads the body once, verifies it, and uses
// X-Export-Delivery to ignore a delivery it has already handled (deliveries
// are at least once).
func ExampleVerifyWebhook_handler() {
	secret := "whsec_…" // from GET /webhook-secret
	handler := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		sig := r.Header.Get(exporttask.SignatureHeader)
		id := r.Header.Get(exporttask.DeliveryHeader)
		if err := exporttask.VerifyWebhook(secret, sig, id, body, time.Now(), 0); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized) // not retried
			return
		}
		// Look up id among the deliveries already
		// handled; then act on the event and answer 2xx.
		w.WriteHeader(http.StatusNoContent)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /hooks/export-tasks", handler)
}
