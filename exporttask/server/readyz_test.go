package server_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// TestReadyzFailsWhenTheStoreCannotWrite serves from a SQLite database
// opened read-only: reads work, /readyz answers 503.
func TestReadyzFailsWhenTheStoreCannotWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	rw, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	require.NoError(t, rw.Close())
	ro, err := sqlite.Open(t.Context(), "file:"+path+"?mode=ro")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ro.Close() })

	h := newHarness(t, exporttasktest.WithStore(ro))
	resp, body := h.do(t, request{method: "GET", path: "/readyz"})
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "body: %s", body)
	assert.Contains(t, h.logs.String(), "readonly", "the cause is logged")
	resp, _ = h.do(t, request{method: "GET", path: "/healthz"})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
