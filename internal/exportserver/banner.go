package exportserver

import (
	"fmt"
	"io"
	"net"

	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
)

// bannerInfo is what the program prints at start.
type bannerInfo struct {
	baseURL   string
	db        string
	artifacts string // where exported files go
	simulate  bool   // -exporter simulate
	devKey    string // generated development key, or empty
	secret    string // generated webhook secret, or empty
	credsPath string // where the generated key and secret are kept, or empty
	loopback  bool   // webhooks may reach 127.0.0.1 (-webhook-allow)
	exposed   bool   // the listen address is not loopback only
}

// exampleBody is a valid create request for the curl line: a small ROI
// (about 4 km × 4 km) of the demo RASTER record.
const exampleBody = `{"catalogRecordID":"` + demo.RasterID + `","domain":"RASTER","artifactCRS":"4326",` +
	`"ROI":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon",` +
	`"coordinates":[[[34.78,31.25],[34.82,31.25],[34.82,31.29],[34.78,31.29],[34.78,31.25]]]}}]},"webhook":[{"url":"https://example.com/export-hook","events":["TASK_COMPLETED"]}]}`

func (b bannerInfo) write(w io.Writer) {
	fmt.Fprintf(w, "export task server listening on %s (store: %s, files: %s)\n", b.baseURL, b.db, b.artifacts)
	fmt.Fprintf(w, "docs: %s/docs/\n", b.baseURL)
	b.writeExposure(w)
	key := "$KEY"
	if b.devKey != "" {
		key = b.devKey
		fmt.Fprintf(w, "development API key (customer %q, read+write): %s\n", devCustomer, b.devKey)
	}
	if b.secret != "" {
		fmt.Fprintf(w, "webhook master secret (generated): %s\neach customer verifies its deliveries with its own secret: GET /webhook-secret with its API key\n", b.secret)
	}
	if b.devKey != "" || b.secret != "" {
		if b.credsPath != "" {
			fmt.Fprintf(w, "the generated credentials are kept in %s and reused at the next start (-keys and -webhook-secret win)\n", b.credsPath)
		} else {
			fmt.Fprintln(w, "the generated credentials change at every start with this -db; set -keys and -webhook-secret to keep them")
		}
	}
	if b.simulate {
		fmt.Fprintln(w, "exporter: simulate (any catalogRecordID; the files are small stand-ins)")
	} else {
		fmt.Fprintf(w, "demo catalog records: RASTER %s, DEM %s, 3D %s\n", demo.RasterID, demo.DEMID, demo.Tiles3DID)
	}
	fmt.Fprintf(w, "try:\n  curl -i -H \"x-api-key: %s\" -H 'Content-Type: application/json' -d '%s' %s/export-tasks\n",
		key, exampleBody, b.baseURL)
	fmt.Fprintf(w, "then, once GET %s/export-tasks/ID says COMPLETED, download its GeoPackage (the name is in artifacts[].name):\n", b.baseURL)
	fmt.Fprintf(w, "  curl -fo export.gpkg -H \"x-api-key: %s\" %s/export-tasks/ID/artifacts/%s.gpkg\n", key, b.baseURL, demo.RasterID)
	b.writeReceiver(w, key)
}

// writeExposure says who can reach the server, and warns when everyone on
// the network can with a generated development key.
func (b bannerInfo) writeExposure(w io.Writer) {
	switch {
	case !b.exposed:
		fmt.Fprintln(w, "listening on this machine only; to listen on every interface, start with -addr :8080 (and -keys)")
	case b.devKey != "":
		fmt.Fprintln(w, "WARNING: listening beyond this machine with a generated development key: anyone who can reach this port can read and create tasks with the key printed here; set -keys, or -addr 127.0.0.1:8080 for this machine only")
	default:
		fmt.Fprintln(w, "listening beyond this machine (-addr); -addr 127.0.0.1:8080 listens on this machine only")
	}
}

// exposed reports whether addr accepts connections from other machines:
// a wildcard or non-loopback address.
func exposed(addr net.Addr) bool {
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return true
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// writeReceiver says how to see signed webhooks on this machine with
// examples/webhook-receiver.
func (b bannerInfo) writeReceiver(w io.Writer, key string) {
	from := ""
	if b.baseURL != "http://localhost:8080" && b.baseURL != "http://127.0.0.1:8080" { // the receiver's default
		from = " -secret-from " + b.baseURL + "/webhook-secret"
	}
	fmt.Fprintf(w, "to see signed webhooks on this machine: go run ./examples/webhook-receiver -key %s%s\n", key, from)
	fmt.Fprintln(w, `  and subscribe with "webhook":[{"url":"http://127.0.0.1:8090/hooks","events":["TASK_STARTED","TASK_COMPLETED"]}]`)
	if !b.loopback {
		fmt.Fprintln(w, "  (start this server with -webhook-allow 127.0.0.0/8 first: it refuses loopback receivers otherwise)")
	}
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
