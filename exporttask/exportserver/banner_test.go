package exportserver

import (
	"bytes"
	"io"
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBannerNamesTheReceiver: the start-up text says how to run
// examples/webhook-receiver against this server, and that loopback
// receivers need -webhook-allow when it is not given.
func TestBannerNamesTheReceiver(t *testing.T) {
	var out bytes.Buffer
	bannerInfo{baseURL: "http://localhost:8080", devKey: "k1"}.write(&out)
	assert.Contains(t, out.String(), "to see the signed webhooks: go run ./examples/webhook-receiver -key k1\n")
	assert.Contains(t, out.String(), `"webhook":[{"url":"http://127.0.0.1:8090/hooks","events":["TASK_COMPLETED","TASK_FAILED"]}]`)
	assert.Contains(t, out.String(), "(start this server with -webhook-allow 127.0.0.0/8 first")

	out.Reset()
	bannerInfo{baseURL: "http://127.0.0.1:9999", loopback: true}.write(&out)
	assert.Contains(t, out.String(), "go run ./examples/webhook-receiver -key $KEY -secret-from http://127.0.0.1:9999/webhook-secret\n")
	assert.NotContains(t, out.String(), "-webhook-allow")
}

func TestAllows(t *testing.T) {
	cfg, err := ParseConfig([]string{"-webhook-allow", "10.0.0.0/8,127.0.0.0/8"}, envOf(nil), io.Discard)
	require.NoError(t, err)
	assert.True(t, allows(cfg.WebhookAllow, netip.MustParseAddr("127.0.0.1")))
	assert.False(t, allows(nil, netip.MustParseAddr("127.0.0.1")))
}

// TestBannerLinesPasteAsTheyAre: the header of each curl line is in double
// quotes, so a shell expands $KEY when no key was generated.
func TestBannerLinesPasteAsTheyAre(t *testing.T) {
	var out bytes.Buffer
	bannerInfo{baseURL: "http://localhost:8080"}.write(&out)
	assert.Contains(t, out.String(), `curl -s -H "x-api-key: $KEY"`)
	assert.Contains(t, out.String(), `curl -fo export.gpkg -H "x-api-key: $KEY"`)
	assert.NotContains(t, out.String(), `'x-api-key`)
}

// TestBannerSaysWhoCanReachIt: on loopback the banner says how to listen on
// every interface; beyond loopback with a generated key it warns.
func TestBannerSaysWhoCanReachIt(t *testing.T) {
	var out bytes.Buffer
	bannerInfo{baseURL: "http://127.0.0.1:8080", devKey: "k1"}.write(&out)
	assert.Contains(t, out.String(), "listening on this machine only; to listen on every interface, start with -addr :8080")
	assert.NotContains(t, out.String(), "WARNING")

	out.Reset()
	bannerInfo{baseURL: "http://localhost:8080", devKey: "k1", exposed: true}.write(&out)
	assert.Contains(t, out.String(), "WARNING: listening beyond this machine with a generated development key")

	out.Reset()
	bannerInfo{baseURL: "http://localhost:8080", exposed: true}.write(&out)
	assert.NotContains(t, out.String(), "WARNING")
	assert.Contains(t, out.String(), "listening beyond this machine (-addr)")
}

// TestDefaultAddrIsLoopback: without -addr the server listens on
// 127.0.0.1 only; "-addr :8080" listens on every interface.
func TestDefaultAddrIsLoopback(t *testing.T) {
	cfg, err := ParseConfig(nil, envOf(nil), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:8080", cfg.Addr)
	for addr, want := range map[string]bool{"127.0.0.1:8080": false, "[::1]:80": false, "0.0.0.0:8080": true, "[::]:8080": true, "192.0.2.1:80": true} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		require.NoError(t, err)
		assert.Equal(t, want, exposed(a), addr)
	}
}
