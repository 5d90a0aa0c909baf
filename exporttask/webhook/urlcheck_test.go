package webhook_test

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

func TestURLChecker(t *testing.T) {
	check := webhook.URLChecker(nil)

	got, err := check("https://example.com:/hook")
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/hook", got, "the normalized form")

	_, err = check("ftp://example.com/hook")
	assert.ErrorIs(t, err, webhook.ErrInvalidWebhookURL)

	// Normalized first, so the check judges the host the dialer reaches.
	_, err = check("http://１２７.０.０.１:8080/hook")
	assert.ErrorIs(t, err, webhook.ErrBlockedAddress)

	allow := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	allowed := webhook.URLChecker(allow)
	got, err = allowed("http://１２７.０.０.１:8080/hook")
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:8080/hook", got)

	// The checker keeps its own copy of allow.
	allow[0] = netip.MustParsePrefix("10.0.0.0/8")
	_, err = allowed("http://127.0.0.1:8080/hook")
	assert.NoError(t, err)
}
