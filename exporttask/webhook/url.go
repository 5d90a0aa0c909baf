package webhook

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// webhookURL is a parsed, normalised webhook URL.
type webhookURL struct {
	u    *url.URL
	host string // the host as the dialer sees it: ASCII, no brackets
	port uint16 // the port dialed: explicit, or the scheme's
}

// NormalizeURL parses a webhook URL and returns it in the form deliveries
// dial, which is the form a server stores, so that what is checked at
// create is what is dialed later:
//
//   - the scheme is http or https, and the URL is absolute with a host;
//   - the host carries at most one port (http://127.0.0.1:19100:80/a is
//     refused), of 1 to 65535 digits' value, written without leading
//     zeros; an empty port (host:) is dropped;
//   - a host with characters outside ASCII is mapped to its ASCII form as
//     net/http maps it before dialing: UTS #46 lookup processing of
//     golang.org/x/net/idna (NFKC-based mapping, case folding, Punycode).
//     So fullwidth digits become ASCII digits (１２７.０.０.１ is
//     127.0.0.1) and circled letters plain ones (ⓛⓞⓒⓐⓛⓗⓞⓢⓣ is localhost),
//     and the address checks of [CheckWebhookURL] judge the host the
//     dialer would reach. A host that mapping refuses is refused. An ASCII
//     host is kept as it is, as net/http does.
//
// Errors wrap [ErrInvalidWebhookURL] and name no Go package.
func NormalizeURL(raw string) (string, error) {
	w, err := parseWebhookURL(raw)
	if err != nil {
		return "", err
	}
	return w.u.String(), nil
}

// parseWebhookURL is NormalizeURL, returning the parts the checks need.
func parseWebhookURL(raw string) (webhookURL, error) {
	if !utf8.ValidString(raw) {
		return webhookURL{}, fmt.Errorf("%w: not valid UTF-8", ErrInvalidWebhookURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return webhookURL{}, fmt.Errorf("%w: %w", ErrInvalidWebhookURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return webhookURL{}, fmt.Errorf("%w: scheme must be http or https, got %q", ErrInvalidWebhookURL, u.Scheme)
	}
	if u.Opaque != "" {
		return webhookURL{}, fmt.Errorf("%w: %q is not an absolute URL with a host", ErrInvalidWebhookURL, raw)
	}
	host, port, err := splitHostPort(u.Host)
	if err != nil {
		return webhookURL{}, err
	}
	if host == "" {
		return webhookURL{}, fmt.Errorf("%w: the URL has no host", ErrInvalidWebhookURL)
	}
	w := webhookURL{u: u, port: 80}
	if u.Scheme == "https" {
		w.port = 443
	}
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 {
			return webhookURL{}, fmt.Errorf("%w: invalid port %q: a port is a number from 1 to 65535", ErrInvalidWebhookURL, port)
		}
		w.port = uint16(n)
		port = strconv.FormatUint(n, 10)
	}
	bracketed := strings.HasPrefix(u.Host, "[")
	if !bracketed && !isASCII(host) {
		ascii, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return webhookURL{}, fmt.Errorf("%w: the host %q is not a valid internationalised domain name: %w", ErrInvalidWebhookURL, host, err)
		}
		host = ascii
	}
	w.host = host
	hostPart := host
	if bracketed {
		hostPart = "[" + host + "]" // url.URL.String escapes a zone's %
	}
	if port != "" {
		hostPart += ":" + port
	}
	u.Host = hostPart
	return w, nil
}

// splitHostPort splits a URL's host[:port] (unescaped, as url.Parse keeps
// it) into the host, without brackets, and the port: at most one.
func splitHostPort(hostport string) (host, port string, err error) {
	if strings.HasPrefix(hostport, "[") {
		end := strings.LastIndexByte(hostport, ']')
		if end < 0 {
			return "", "", fmt.Errorf("%w: %q has no closing bracket", ErrInvalidWebhookURL, hostport)
		}
		host, rest := hostport[1:end], hostport[end+1:]
		if rest != "" && !strings.HasPrefix(rest, ":") {
			return "", "", fmt.Errorf("%w: %q: only a port may follow the address in brackets", ErrInvalidWebhookURL, hostport)
		}
		port = strings.TrimPrefix(rest, ":")
		if strings.Contains(port, ":") {
			return "", "", fmt.Errorf("%w: the host %q has more than one port", ErrInvalidWebhookURL, hostport)
		}
		return host, port, nil
	}
	host, port, _ = strings.Cut(hostport, ":")
	if strings.Contains(port, ":") {
		return "", "", fmt.Errorf("%w: the host %q has more than one port", ErrInvalidWebhookURL, hostport)
	}
	return host, port, nil
}

// isASCII reports whether s has only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
