package viewer

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRelativeURL(t *testing.T) {
	cases := []struct{ dir, target, want string }{
		{"/api/ui/", "/api.json", "../../api.json"},
		{"/docs/", "/openapi.json", "../openapi.json"},
		{"/docs/", "/docs/openapi.json", "./openapi.json"},
		{"/", "/openapi.json", "./openapi.json"},
		{"/a/b/", "/a/spec/x.json", "../spec/x.json"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, relativeURL(c.dir, c.target), "%s -> %s", c.dir, c.target)
	}
}

func TestNegotiateEncoding(t *testing.T) {
	all := [numEncodings]bool{true, true, true}
	noBr := [numEncodings]bool{true, true, false}
	cases := []struct {
		accept string
		avail  [numEncodings]bool
		want   contentEncoding
	}{
		{"", all, encIdentity},
		{"gzip", all, encGzip},
		{"gzip, br", all, encBrotli},
		{"br;q=0.5, gzip", all, encGzip},
		{"br;q=1.0, gzip;q=1", all, encBrotli},
		{"gzip, br", noBr, encGzip},
		{"*", all, encBrotli},
		{"*;q=0, identity", all, encIdentity},
		{"gzip;q=0, br;q=0", all, encIdentity},
		{"x-gzip", all, encGzip},
		{"deflate", all, encIdentity},
		{"br;q=0.001", all, encBrotli},
		{"br;q=abc, gzip;q=0.1", all, encGzip},
		{"GZIP", all, encGzip},
		{"br;q=1.5, gzip", all, encGzip},
	}
	for _, c := range cases {
		var hdr []string
		if c.accept != "" {
			hdr = []string{c.accept}
		}
		assert.Equal(t, c.want, negotiateEncoding(hdr, c.avail), "Accept-Encoding: %q", c.accept)
	}
}
