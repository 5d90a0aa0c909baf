package webhook_test

import (
	"fmt"
	"net/netip"

	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

// CheckWebhookURL refuses URLs that point inside the network, unless an
// allowed prefix covers them.
func ExampleCheckWebhookURL() {
	fmt.Println(webhook.CheckWebhookURL("https://hooks.example.com/exports", nil))
	fmt.Println(webhook.CheckWebhookURL("http://169.254.169.254/latest/meta-data", nil))
	fmt.Println(webhook.CheckWebhookURL("http://127.0.0.1:9000/hook", nil))
	allow := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	fmt.Println(webhook.CheckWebhookURL("http://127.0.0.1:9000/hook", allow))
	// Output:
	// <nil>
	// webhook address not allowed: 169.254.169.254 is a link-local address (cloud metadata lives here)
	// webhook address not allowed: 127.0.0.1 is a loopback address
	// <nil>
}
