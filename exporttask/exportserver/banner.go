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

// receiverURL is where the banner's examples send their webhooks: the
// default address of examples/webhook-receiver.
const receiverURL = "http://127.0.0.1:8090/hooks"

// roiOf is a FeatureCollection of one polygon, the box from (x0, y0) to
// (x1, y1), as the banner's create bodies give it.
func roiOf(x0, y0, x1, y1 string) string {
	return `"ROI":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon",` +
		`"coordinates":[[[` + x0 + `,` + y0 + `],[` + x1 + `,` + y0 + `],[` + x1 + `,` + y1 + `],[` + x0 + `,` + y1 + `],[` + x0 + `,` + y0 + `]]]}}]}`
}

// exampleBodies are valid create requests for the banner's curl lines, one
// per domain, each a small region of the demo record (about 4 km × 4 km for
// RASTER and DEM, 1 km × 1 km for 3D) with a webhook to receiverURL.
var exampleBodies = []struct {
	domain, ext, body string
}{
	{"RASTER", "gpkg", `{"catalogRecordID":"` + demo.RasterID + `","domain":"RASTER","artifactCRS":"4326",` +
		roiOf("34.78", "31.25", "34.82", "31.29") + `,"webhook":[{"url":"` + receiverURL + `","events":["TASK_COMPLETED","TASK_FAILED"]}]}`},
	{"DEM", "tif", `{"catalogRecordID":"` + demo.DEMID + `","domain":"DEM","artifactCRS":"4326",` +
		roiOf("34.50", "31.50", "34.54", "31.54") + `,"webhook":[{"url":"` + receiverURL + `","events":["TASK_COMPLETED","TASK_FAILED"]}]}`},
	{"3D", "zip", `{"catalogRecordID":"` + demo.Tiles3DID + `","domain":"3D","artifactCRS":"4326",` +
		roiOf("34.52", "31.47", "34.53", "31.48") + `,"webhook":[{"url":"` + receiverURL + `","events":["TASK_COMPLETED","TASK_FAILED"]}]}`},
}

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
	fmt.Fprintln(w, "try, one export per domain (each prints the task; its webhook goes to examples/webhook-receiver on 127.0.0.1:8090, see below):")
	for _, e := range exampleBodies {
		fmt.Fprintf(w, "  curl -s -H \"x-api-key: %s\" -H 'Content-Type: application/json' -d '%s' %s/export-tasks\n",
			key, e.body, b.baseURL)
	}
	fmt.Fprintf(w, "then, once GET %s/export-tasks/ID says COMPLETED, download its files (the names are in artifacts[].name), e.g.:\n", b.baseURL)
	for _, e := range exampleBodies {
		id := map[string]string{"RASTER": demo.RasterID, "DEM": demo.DEMID, "3D": demo.Tiles3DID}[e.domain]
		if b.simulate {
			break
		}
		fmt.Fprintf(w, "  curl -fo export.%s -H \"x-api-key: %s\" %s/export-tasks/ID/artifacts/%s.%s\n", e.ext, key, b.baseURL, id, e.ext)
	}
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
	fmt.Fprintf(w, "to see the signed webhooks: go run ./examples/webhook-receiver -key %s%s\n", key, from)
	fmt.Fprintln(w, "  (the exports above complete without it; their deliveries are retried until it listens)")
	if !b.loopback {
		fmt.Fprintln(w, "  (start this server with -webhook-allow 127.0.0.0/8 first: it refuses loopback receivers otherwise, and the lines above with them)")
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
