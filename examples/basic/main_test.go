package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunServesTheDocs(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-spec", "../../testdata/wild/petstore-expanded.yaml", "-addr", "127.0.0.1:0"}, &out, ready)
	}()
	addr := <-ready

	res, err := http.Get("http://" + addr + "/docs/")
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.NoError(t, res.Body.Close())
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(body), "<title>Swagger Petstore</title>")

	res, err = http.Get("http://" + addr + "/openapi.yaml")
	require.NoError(t, err)
	require.NoError(t, res.Body.Close())
	assert.Equal(t, http.StatusOK, res.StatusCode)

	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, out.String(), "Swagger UI: http://"+addr+"/docs/")
}

func TestRunRejectsABadSpec(t *testing.T) {
	err := run(context.Background(), []string{"-spec", "missing.yaml", "-addr", "127.0.0.1:0"}, io.Discard, nil)
	assert.ErrorContains(t, err, "missing.yaml")
}

func TestRunWatchShowsEdits(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "api.yaml")
	write := func(title string) {
		tmp := spec + ".tmp"
		require.NoError(t, os.WriteFile(tmp, []byte("openapi: 3.0.3\ninfo: {title: "+title+", version: '1'}\npaths: {}\n"), 0o600))
		require.NoError(t, os.Rename(tmp, spec))
	}
	write("Before")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-watch", "-spec", spec, "-addr", "127.0.0.1:0"}, io.Discard, ready)
	}()
	addr := <-ready
	title := func() string {
		res, err := http.Get("http://" + addr + "/openapi.json")
		require.NoError(t, err)
		defer res.Body.Close()
		var doc struct {
			Info struct{ Title string } `json:"info"`
		}
		require.NoError(t, json.NewDecoder(res.Body).Decode(&doc))
		return doc.Info.Title
	}
	require.Equal(t, "Before", title())

	write("After the edit")
	// Poll the served document until the edit shows, for at most 10 s.
	deadline := time.Now().Add(10 * time.Second)
	for title() != "After the edit" {
		require.True(t, time.Now().Before(deadline), "the edit did not show within 10s")
		<-time.After(10 * time.Millisecond) // the polling interval, not a guess at how long the reload takes
	}
	cancel()
	require.NoError(t, <-done)
}
