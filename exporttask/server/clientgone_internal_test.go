package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A store error that is the client's cancelled request is no server
// error: 499, logged at INFO; the same error while the client still
// waits is a 500, logged at ERROR.
func TestServerErrorOfAClientThatWentAway(t *testing.T) {
	for _, tc := range []struct {
		name      string
		gone      bool
		err       error
		status    int
		level     string
		errorText bool
	}{
		{"client gone", true, fmt.Errorf("postgres: create task: %w", context.Canceled), statusClientClosed, "INFO", false},
		{"cancelled inside, client waiting", false, fmt.Errorf("postgres: create task: %w", context.Canceled), http.StatusInternalServerError, "ERROR", true},
		{"client gone, other error", true, errors.New("disk full"), http.StatusInternalServerError, "ERROR", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			s := &Server{logger: slog.New(slog.NewTextHandler(&logs, nil))}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tc.gone {
				cancel()
			}
			r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/export-tasks", nil)
			w := httptest.NewRecorder()
			s.serverError(w, r, "creating a task", tc.err)
			assert.Equal(t, tc.status, w.Code)
			assert.Contains(t, w.Body.String(), fmt.Sprintf(`"status":%d`, tc.status), "a problem body")
			assert.Contains(t, logs.String(), "level="+tc.level)
			assert.Equal(t, tc.errorText, bytes.Contains(logs.Bytes(), []byte("error=")))
		})
	}
}
