package viewer

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	swguistatic "github.com/swaggest/swgui/v5/static"
)

// BenchmarkFirstBundleRequest measures the first request for Swagger UI's
// bundle in each encoding, the only one that does work, from a fresh
// resource each time: stored gzip-compressed, as the embedded module
// ships it (gzip is the stored bytes; br is made from a decompressing
// stream; identity is decompressed), against the same bundle held
// uncompressed (br and gzip compressed from it). B/op is what the request
// allocates.
//
//	go test -run '^$' -bench FirstBundleRequest -benchmem -benchtime 20x .
func BenchmarkFirstBundleRequest(b *testing.B) {
	gz, err := fs.ReadFile(swguistatic.FS, "swagger-ui-bundle.js.gz")
	require.NoError(b, err)
	plain, err := gunzip(gz)
	require.NoError(b, err)
	for _, c := range []struct {
		name string
		make func() *resource
	}{
		{"stored-gzip", func() *resource { return newGzipAsset("swagger-ui-bundle.js", "text/javascript", gz) }},
		{"stored-identity", func() *resource { return newAsset("swagger-ui-bundle.js", "text/javascript", plain, true) }},
	} {
		for _, e := range []contentEncoding{encBrotli, encGzip, encIdentity} {
			b.Run(c.name+"/"+e.String(), func(b *testing.B) {
				b.ReportAllocs()
				// Fresh resources made ahead, outside the timer: only the
				// first request's work is timed.
				rs := make([]*resource, b.N)
				for i := range rs {
					rs[i] = c.make()
				}
				b.ResetTimer()
				for i := range b.N {
					if rs[i].variant(e, nil) == nil {
						b.Fatal("no variant")
					}
				}
			})
		}
	}
}
