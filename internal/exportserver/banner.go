package exportserver

import (
	"fmt"
	"io"
	"net"
)

// bannerInfo is what the program prints at start.
type bannerInfo struct {
	baseURL string
	db      string
	devKey  string // generated development key, or empty
	secret  string // generated webhook secret, or empty
}

// exampleBody is a valid create request for the curl line.
const exampleBody = `{"catalogRecordID":"8b867544-2dab-43a1-be6e-f23ec83c19b4","domain":"RASTER","artifactCRS":"4326","webhook":[{"url":"https://example.com/export-hook","events":["TASK_COMPLETED"]}]}`

func (b bannerInfo) write(w io.Writer) {
	fmt.Fprintf(w, "export task server listening on %s (store: %s)\n", b.baseURL, b.db)
	fmt.Fprintf(w, "docs: %s/docs/\n", b.baseURL)
	key := "$KEY"
	if b.devKey != "" {
		key = b.devKey
		fmt.Fprintf(w, "development API key (customer %q, read+write): %s\n", devCustomer, b.devKey)
	}
	if b.secret != "" {
		fmt.Fprintf(w, "webhook secret (generated, changes at every start; set -webhook-secret to keep one): %s\n", b.secret)
	}
	fmt.Fprintf(w, "try:\n  curl -i -H 'x-api-key: %s' -H 'Content-Type: application/json' -d '%s' %s/export-tasks\n",
		key, exampleBody, b.baseURL)
}

// baseURL is the URL clients on this machine use to reach addr: a wildcard
// listen address is shown as localhost.
func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
