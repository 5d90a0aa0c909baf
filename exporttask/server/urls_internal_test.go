package server

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

func TestURLBuilderBase(t *testing.T) {
	req := httptest.NewRequest("GET", "http://api.internal:8080/export-tasks/1", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("X-Forwarded-Host", "exports.example.com, proxy.internal")

	plain, err := newURLBuilder("", false)
	require.NoError(t, err)
	assert.Equal(t, "http://api.internal:8080", plain.base(req), "forwarded headers are ignored unless trusted")

	trusting, err := newURLBuilder("", true)
	require.NoError(t, err)
	assert.Equal(t, "https://exports.example.com", trusting.base(req), "the first forwarded value")

	public, err := newURLBuilder("https://dl.example.com/api/", true)
	require.NoError(t, err)
	assert.Equal(t, "https://dl.example.com/api", public.base(req), "PublicURL wins")

	tlsReq := httptest.NewRequest("GET", "https://api.internal/export-tasks/1", nil)
	tlsReq.TLS = &tls.ConnectionState{}
	assert.Equal(t, "https://api.internal", plain.base(tlsReq))
}

func TestURLBuilderWithURLs(t *testing.T) {
	b, err := newURLBuilder("https://dl.example.com", false)
	require.NoError(t, err)
	req := httptest.NewRequest("GET", "/export-tasks/7", nil)
	arts := []exporttask.Artifact{{Name: "a b.gpkg", URL: "stale"}}
	done := b.withURLs(req, exporttask.Task{ID: 7, Status: exporttask.StatusCompleted, Artifacts: arts})
	assert.Equal(t, "https://dl.example.com/export-tasks/7/artifacts/a%20b.gpkg", done.Artifacts[0].URL)
	assert.Equal(t, "stale", arts[0].URL, "the caller's slice is not changed")
	expired := b.withURLs(req, exporttask.Task{ID: 7, Status: exporttask.StatusExpired, Artifacts: arts})
	assert.Empty(t, expired.Artifacts[0].URL, "only a COMPLETED task's files have a URL")
}
