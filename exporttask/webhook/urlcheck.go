package webhook

import (
	"net/netip"
	"slices"
)

// URLChecker returns the check a server makes on each webhook URL of a
// create before storing it: the URL is normalized ([NormalizeURL]), then
// checked against the addresses webhooks may not reach, with allow as in
// [CheckWebhookURL]. It returns the normalized URL, the form deliveries
// dial, or the error of the step that refused the URL, whose text names no
// Go package. Give it the Allow of the [DelivererConfig] that delivers
// the webhooks, so that what is accepted at create is what may be dialed.
func URLChecker(allow []netip.Prefix) func(raw string) (string, error) {
	allow = slices.Clone(allow)
	return func(raw string) (string, error) {
		norm, err := NormalizeURL(raw)
		if err != nil {
			return "", err
		}
		if err := CheckWebhookURL(norm, allow); err != nil {
			return "", err
		}
		return norm, nil
	}
}
