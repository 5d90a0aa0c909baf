// Package webhook delivers the events of export tasks to the URLs their
// requests subscribed: a [Deliverer] claims due deliveries from a store's
// outbox, POSTs each one signed with [exporttask.SignWebhook], and retries
// failures with exponential backoff and full jitter, honouring Retry-After.
//
// Start with [NewDeliverer] and [Deliverer.Run]. Webhook URLs are supplied
// by clients, so the package guards against server-side request forgery:
// [CheckWebhookURL] refuses loopback, private, link-local and other
// internal addresses (unless allowed), and the Deliverer's dialer checks
// every address it connects to after DNS resolution, so a name that
// resolves to an internal address is refused too. [NormalizeURL] gives a
// URL the form the dialer reaches (one port, non-ASCII hosts mapped as
// net/http maps them), which a server checks and stores, so that what is
// accepted at create is what is dialed. Receivers verify
// deliveries with [exporttask.VerifyWebhook].
package webhook
