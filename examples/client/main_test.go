package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestRunDownloadsEveryFile runs the example against a test server, as the
// README's quick start does against the reference server.
func TestRunDownloadsEveryFile(t *testing.T) {
	srv := exporttasktest.NewServer(t)
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-url", srv.URL, "-key", srv.Key, "-out", dir}, &out, io.Discard))
	assert.Contains(t, out.String(), "task 1 PENDING")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	for _, e := range entries {
		assert.Contains(t, out.String(), filepath.Join(dir, e.Name())+" (")
		assert.NotContains(t, e.Name(), ".part")
	}
}

func TestRunNeedsAKey(t *testing.T) {
	var errOut bytes.Buffer
	err := run(t.Context(), nil, io.Discard, &errOut)
	assert.ErrorContains(t, err, "-key is required")
}
