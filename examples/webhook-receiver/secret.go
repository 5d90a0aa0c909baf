package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// fetchTimeout bounds the request for the secret.
const fetchTimeout = 10 * time.Second

// fetchSecret asks the server at url (its GET /webhook-secret) for the
// secret that signs the webhooks of key's customer.
func fetchSecret(ctx context.Context, client *http.Client, url, key string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", fmt.Errorf("fetching the webhook secret from %s: %w", url, err)
	}
	req.Header.Set("x-api-key", key)
	res, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("fetching the webhook secret from %s (is the server running there?): %w", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return "", fmt.Errorf("fetching the webhook secret from %s: reading the answer: %w", url, err)
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("fetching the webhook secret from %s: %s%s", url, res.Status, problemDetail(body))
	}
	var got struct {
		Secret string `json:"secret"`
		Scheme string `json:"scheme"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		return "", fmt.Errorf("fetching the webhook secret from %s: the answer is not {secret, scheme}: %w", url, err)
	}
	switch {
	case got.Scheme != "v2":
		return "", fmt.Errorf("fetching the webhook secret from %s: the server signs with scheme %q; this receiver verifies v2", url, got.Scheme)
	case !strings.HasPrefix(got.Secret, secretPrefix):
		return "", fmt.Errorf("fetching the webhook secret from %s: the secret does not start with %q", url, secretPrefix)
	}
	return got.Secret, nil
}

// problemDetail returns ": <detail>" of a problem+json body, or "" when
// body is not one.
func problemDetail(body []byte) string {
	var p exporttask.Problem
	if json.Unmarshal(body, &p) != nil || p.Detail == "" {
		return ""
	}
	return ": " + p.Detail
}
