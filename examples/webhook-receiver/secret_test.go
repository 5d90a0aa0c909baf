package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFetchSecret(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("x-api-key") {
		case "good":
			_, _ = w.Write([]byte(`{"secret":"whsec_0123","scheme":"v2"}`))
		case "old-server":
			_, _ = w.Write([]byte(`{"secret":"0123","scheme":"v1"}`))
		case "no-prefix":
			_, _ = w.Write([]byte(`{"secret":"0123","scheme":"v2"}`))
		case "not-json":
			_, _ = w.Write([]byte(`<html>`))
		default:
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"type":"about:blank","title":"Unauthorized","status":401,"detail":"unknown API key","message":"unknown API key"}`))
		}
	}))
	defer srv.Close()
	url := srv.URL + "/webhook-secret"

	got, err := fetchSecret(t.Context(), srv.Client(), url, "good")
	require.NoError(t, err)
	assert.Equal(t, "whsec_0123", got)

	_, err = fetchSecret(t.Context(), srv.Client(), url, "wrong")
	assert.EqualError(t, err, "fetching the webhook secret from "+url+": 401 Unauthorized: unknown API key")
	_, err = fetchSecret(t.Context(), srv.Client(), url, "old-server")
	assert.EqualError(t, err, "fetching the webhook secret from "+url+`: the server signs with scheme "v1"; this receiver verifies v2`)
	_, err = fetchSecret(t.Context(), srv.Client(), url, "no-prefix")
	assert.EqualError(t, err, "fetching the webhook secret from "+url+`: the secret does not start with "whsec_"`)
	_, err = fetchSecret(t.Context(), srv.Client(), url, "not-json")
	assert.ErrorContains(t, err, "the answer is not {secret, scheme}")

	srv.Close()
	_, err = fetchSecret(t.Context(), http.DefaultClient, url, "good")
	assert.ErrorContains(t, err, "fetching the webhook secret from "+url+" (is the server running there?)")
}
