package main

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFlagsDefaults(t *testing.T) {
	cfg, err := parseFlags([]string{"-key", "k"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, config{addr: "127.0.0.1:8090", key: "k", secretFrom: "http://localhost:8080/webhook-secret", tolerance: 5 * time.Minute}, cfg)

	cfg, err = parseFlags([]string{"-secret", "whsec_abc", "-addr", "127.0.0.1:0", "-tolerance", "30s"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, config{addr: "127.0.0.1:0", secret: "whsec_abc", secretFrom: "http://localhost:8080/webhook-secret", tolerance: 30 * time.Second}, cfg)
}

func TestParseFlagsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "no secret: give -key KEY (the API key the server printed) to fetch the customer's secret from -secret-from, or -secret whsec_..."},
		{[]string{"-key", "k", "-secret", "whsec_abc"}, "give -secret or -key, not both"},
		{[]string{"-secret", "6f1c0a"}, "-secret must be a customer's webhook secret, whsec_... as GET /webhook-secret returns it, not the server's master secret"},
		{[]string{"-key", "k", "-tolerance", "0s"}, "-tolerance must be positive, got 0s"},
		{[]string{"-key", "k", "-secret-from", "localhost:8080/webhook-secret"}, `-secret-from must be an http(s) URL such as http://localhost:8080/webhook-secret, got "localhost:8080/webhook-secret"`},
		{[]string{"-key", "k", "extra"}, "unexpected arguments: extra"},
		{[]string{"-port", "1"}, "flag provided but not defined: -port"},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		assert.EqualError(t, err, tc.want, "%q", tc.args)
	}
}
