package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// maxBody bounds a delivery's body. The server's payloads are a small view
// of the task (a few kB); anything far larger is not one of them.
const maxBody = 1 << 20

// receiver is the webhook endpoint: it verifies each delivery's signature,
// drops repeated delivery ids, and prints one line per event.
type receiver struct {
	secret    string
	tolerance time.Duration
	now       func() time.Time
	seen      *seenSet
	log       *slog.Logger
	// hint is added to the log line of a signature that does not match
	// (not to the answer).
	hint string

	mu  sync.Mutex // serialises writes to out
	out io.Writer
}

// ServeHTTP handles one delivery (a POST to any path).
func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(exporttask.DeliveryHeader)
	log := rc.log.With("delivery", id, "event", r.Header.Get("X-Export-Event"), "remote", r.RemoteAddr, "path", r.URL.Path)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		status := http.StatusBadRequest
		if errors.As(err, new(*http.MaxBytesError)) {
			status = http.StatusRequestEntityTooLarge
		}
		rc.refuse(w, log, status, "cannot read the body", err.Error())
		return
	}
	err = exporttask.VerifyWebhook(rc.secret, r.Header.Get(exporttask.SignatureHeader), id, body, rc.now(), rc.tolerance)
	switch {
	case errors.Is(err, exporttask.ErrSignatureMalformed):
		rc.refuse(w, log, http.StatusBadRequest, "malformed or missing signature headers", err.Error())
		return
	case errors.Is(err, exporttask.ErrSignatureMismatch):
		if rc.hint != "" {
			log = log.With("hint", rc.hint)
		}
		rc.refuse(w, log, http.StatusUnauthorized, "signature does not match this receiver's secret (forged, altered, or another customer's)", err.Error())
		return
	case errors.Is(err, exporttask.ErrSignatureStale):
		rc.refuse(w, log, http.StatusUnauthorized, "signature timestamp too far from this machine's clock (a replay, or skewed clocks)", err.Error())
		return
	case err != nil:
		rc.refuse(w, log, http.StatusUnauthorized, "signature not verified", err.Error())
		return
	}
	var p exporttask.EventPayload
	if err := json.Unmarshal(body, &p); err != nil {
		rc.refuse(w, log, http.StatusBadRequest, "signed body is not an event payload", err.Error())
		return
	}
	if !rc.seen.add(id) {
		log.Info("duplicate delivery ignored: already printed")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	rc.mu.Lock()
	_, err = fmt.Fprintln(rc.out, eventLine(id, p))
	rc.mu.Unlock()
	if err != nil {
		log.Error("cannot print the event", "error", err.Error())
	}
	w.WriteHeader(http.StatusNoContent)
}

// refuse answers status with reason as plain text and logs why.
func (rc *receiver) refuse(w http.ResponseWriter, log *slog.Logger, status int, reason, detail string) {
	log.Warn("delivery refused: "+reason, "status", status, "detail", detail)
	http.Error(w, reason, status)
}
