package webhook

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNormalizeURL: the forms a URL is stored in, which are the forms the
// dialer reaches, and the forms refused.
func TestNormalizeURL(t *testing.T) {
	for _, tc := range []struct {
		name, raw, want string // want "": refused as invalid
	}{
		{"plain", "https://hooks.example.com/x?a=1", "https://hooks.example.com/x?a=1"},
		{"ASCII host kept as written", "https://Hooks.Example.com/x", "https://Hooks.Example.com/x"},
		{"leading zeros of a port", "http://hooks.example.com:008080/x", "http://hooks.example.com:8080/x"},
		{"empty port dropped", "http://hooks.example.com:/x", "http://hooks.example.com/x"},
		{"fullwidth digits", "http://１２７.０.０.１/a", "http://127.0.0.1/a"},
		{"fullwidth dots too", "http://１２７．０．０．１/a", "http://127.0.0.1/a"},
		{"circled letters", "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:8080/a", "http://localhost:8080/a"},
		{"circled letters of a public name", "https://ⓔⓧⓐⓜⓟⓛⓔ.com/a", "https://example.com/a"},
		{"IDN to Punycode", "https://Bücher.example/a", "https://xn--bcher-kva.example/a"},
		{"percent-encoded IDN", "https://b%C3%BCcher.example/a", "https://xn--bcher-kva.example/a"},
		{"IPv6 with port", "http://[2606:2800:220:1::1]:8443/h", "http://[2606:2800:220:1::1]:8443/h"},
		{"IPv6 zone kept escaped once", "http://[fe80::1%25eth0]:8080/h", "http://[fe80::1%25eth0]:8080/h"},
		{"two ports", "http://127.0.0.1:19100:80/a", ""},
		{"two ports on a name", "http://hooks.example.com:8080:443/a", ""},
		{"two ports after IPv6", "http://[::1]:80:80/a", ""},
		{"port 0", "http://hooks.example.com:0/", ""},
		{"port too large", "http://hooks.example.com:65536/", ""},
		{"invalid IDN", "http://a\u200db.example/", ""},
		{"invalid UTF-8", "http://exa\xffmple.com/", ""},
		{"no host", "http:///a", ""},
		{"mailto", "mailto:a@example.com", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NormalizeURL(tc.raw)
			if tc.want == "" {
				require.Error(t, err, "got %q", got)
				assert.ErrorIs(t, err, ErrInvalidWebhookURL)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			again, err := NormalizeURL(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "a normalised URL is its own normal form")
		})
	}
}

// TestCheckWebhookURLJudgesTheDialedHost: forms that reach a blocked
// address once mapped as the dialer maps them are refused at create.
func TestCheckWebhookURLJudgesTheDialedHost(t *testing.T) {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for _, tc := range []struct {
		name, raw string
		allow     []netip.Prefix
		want      error
	}{
		{"fullwidth loopback", "http://１２７.０.０.１:19100/a", nil, ErrBlockedAddress},
		{"fullwidth metadata", "http://１６９.２５４.１６９.２５４/latest", nil, ErrBlockedAddress},
		{"circled localhost", "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:19100/a", nil, ErrBlockedAddress},
		{"fullwidth hex legacy form", "http://０ｘ７ｆ０００００１/a", nil, ErrBlockedAddress},
		{"two ports", "http://127.0.0.1:19100:80/a", loopback, ErrInvalidWebhookURL},
		{"fullwidth loopback, allowed", "http://１２７.０.０.１:19100/a", loopback, nil},
		{"circled public name", "https://ⓔⓧⓐⓜⓟⓛⓔ.com/a", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckWebhookURL(tc.raw, tc.allow)
			if tc.want == nil {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, tc.want)
		})
	}
}
