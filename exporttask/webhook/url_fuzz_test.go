package webhook

import (
	"errors"
	"net/netip"
	"testing"
)

// FuzzNormalizeURL: NormalizeURL never panics, its normal form is its own
// normal form, and CheckWebhookURL judges a URL as it judges its normal
// form (the form stored and dialed).
func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{
		"https://hooks.example.com/x?a=1", "http://127.0.0.1:19100:80/a", "http://１２７.０.０.１/a",
		"http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:8080/a", "https://Bücher.example/a", "http://[::1]:80/", "http://[fe80::1%25eth0]/",
		"http://h:008080/", "http://h:/", "http://0x7f000001/", "http://a\u200db.example/", "http://exa\xffmple.com/",
		"http://%31%32%37.0.0.1/", "http://user:pass@hooks.example.com/", "http:///x", "ftp://x/",
	} {
		f.Add(s)
	}
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	f.Fuzz(func(t *testing.T, raw string) {
		norm, err := NormalizeURL(raw)
		if err != nil {
			if !errors.Is(err, ErrInvalidWebhookURL) {
				t.Fatalf("NormalizeURL(%q): an error that is not ErrInvalidWebhookURL: %v", raw, err)
			}
			return
		}
		again, err := NormalizeURL(norm)
		if err != nil || again != norm {
			t.Fatalf("NormalizeURL(%q) = %q, whose normal form is %q, %v", raw, norm, again, err)
		}
		for _, allow := range [][]netip.Prefix{nil, loopback} {
			a, b := CheckWebhookURL(raw, allow), CheckWebhookURL(norm, allow)
			if (a == nil) != (b == nil) || errors.Is(a, ErrBlockedAddress) != errors.Is(b, ErrBlockedAddress) {
				t.Fatalf("CheckWebhookURL(%q) = %v but CheckWebhookURL(%q) = %v", raw, a, norm, b)
			}
		}
	})
}
