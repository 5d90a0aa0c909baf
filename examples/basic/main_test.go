package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

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
