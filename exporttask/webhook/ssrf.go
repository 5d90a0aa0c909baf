package webhook

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// ErrInvalidWebhookURL is wrapped by the errors of [CheckWebhookURL] for a
// URL that is not an absolute http or https URL with a host.
var ErrInvalidWebhookURL = errors.New("exporttask: invalid webhook URL")

// ErrBlockedAddress is wrapped by the errors of [CheckWebhookURL] and of
// webhook deliveries when the target is an address webhooks may not reach
// (loopback, private, link-local, ...) and no allowed prefix covers it.
var ErrBlockedAddress = errors.New("exporttask: webhook address not allowed")

// blockedRange is an address range webhooks may not reach, with the reason
// given in errors.
type blockedRange struct {
	prefix netip.Prefix
	why    string
}

// blockedRanges lists what a webhook must not reach unless allowed. IPv4
// addresses embedded in IPv6 ones (IPv4-mapped, NAT64, 6to4) are checked as
// IPv4 by [blockedReason] before this table is consulted.
func blockedRanges() []blockedRange {
	return []blockedRange{
		{netip.MustParsePrefix("0.0.0.0/8"), "an unspecified (this-network) address"},
		{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address"},
		{netip.MustParsePrefix("10.0.0.0/8"), "a private address"},
		{netip.MustParsePrefix("172.16.0.0/12"), "a private address"},
		{netip.MustParsePrefix("192.168.0.0/16"), "a private address"},
		{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT address"},
		{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address (cloud metadata lives here)"},
		{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
		{netip.MustParsePrefix("240.0.0.0/4"), "a reserved or broadcast address"},
		{netip.MustParsePrefix("::/96"), "an unspecified, loopback or IPv4-compatible IPv6 address"},
		{netip.MustParsePrefix("fc00::/7"), "a private (unique local) address"},
		{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
		{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
		{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 address"},
	}
}

// addressPolicy decides which IP addresses webhooks may reach.
type addressPolicy struct {
	allow   []netip.Prefix
	blocked []blockedRange
	nat64   netip.Prefix // 64:ff9b::/96, IPv4 in the last 32 bits
	sixTo4  netip.Prefix // 2002::/16, IPv4 in bits 16 to 47
}

func newAddressPolicy(allow []netip.Prefix) *addressPolicy {
	p := &addressPolicy{
		blocked: blockedRanges(),
		nat64:   netip.MustParsePrefix("64:ff9b::/96"),
		sixTo4:  netip.MustParsePrefix("2002::/16"),
	}
	for _, a := range allow {
		if a.IsValid() {
			p.allow = append(p.allow, a.Masked())
		}
	}
	return p
}

// allowed reports whether a is inside an allowed prefix, in its own form or
// in its unmapped IPv4 form.
func (p *addressPolicy) allowed(a netip.Addr) bool {
	a = a.WithZone("")
	for _, pre := range p.allow {
		if pre.Contains(a) || pre.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}

// check returns nil when webhooks may reach a, else an error wrapping
// ErrBlockedAddress that says why.
func (p *addressPolicy) check(a netip.Addr) error {
	if !a.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrBlockedAddress)
	}
	if p.allowed(a) {
		return nil
	}
	if why := p.blockedReason(a.WithZone("")); why != "" {
		return fmt.Errorf("%w: %s is %s", ErrBlockedAddress, a, why)
	}
	return nil
}

// blockedReason returns why a is blocked, or "" when it is not. IPv6
// addresses that carry an IPv4 address (IPv4-mapped ::ffff:0:0/96, NAT64
// 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address too, since
// they can lead to it.
func (p *addressPolicy) blockedReason(a netip.Addr) string {
	if a.Is4In6() {
		v4 := a.Unmap()
		if p.allowed(v4) {
			return ""
		}
		if why := p.blockedReason(v4); why != "" {
			return why + " (IPv4-mapped)"
		}
		return ""
	}
	if a.Is6() {
		b := a.As16()
		var embedded netip.Addr
		var via string
		switch {
		case p.nat64.Contains(a):
			embedded, via = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), "NAT64"
		case p.sixTo4.Contains(a):
			embedded, via = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), "6to4"
		}
		if embedded.IsValid() && !p.allowed(embedded) {
			if why := p.blockedReason(embedded); why != "" {
				return why + " (" + embedded.String() + " through " + via + ")"
			}
		}
	}
	for _, r := range p.blocked {
		if r.prefix.Contains(a) {
			return r.why
		}
	}
	return ""
}

// control is a [net.Dialer] Control function: it runs after DNS resolution,
// on the address about to be dialed, and refuses blocked ones. It fails
// closed on an address it cannot parse.
func (p *addressPolicy) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot parse dialed address %q", ErrBlockedAddress, address)
	}
	return p.check(ap.Addr())
}

// CheckWebhookURL checks a webhook URL when a task is created: it must be an
// absolute http or https URL with a host, and when the host is a literal IP
// address or localhost, that address must be one webhooks may reach.
//
// Refused unless inside a prefix of allow: loopback (127.0.0.0/8, ::1 and
// the name localhost), private (RFC 1918, fc00::/7), link-local
// (169.254.0.0/16 with the cloud metadata address 169.254.169.254,
// fe80::/10), unspecified (0.0.0.0/8, ::), multicast, reserved and broadcast
// (240.0.0.0/4), carrier-grade NAT (100.64.0.0/10), and IPv6 forms that
// embed one of those IPv4 addresses (IPv4-mapped ::ffff:a.b.c.d, NAT64,
// 6to4). Hosts written as the legacy numeric IPv4 forms that some resolvers
// accept (0x7f000001, 2130706433, 0177.0.0.1, 127.1) are read as the address
// they denote and judged as such.
//
// Host names are not resolved here: DNS can change between creation and
// delivery, so deliveries check every address after resolution, when
// connecting. Errors wrap [ErrInvalidWebhookURL] or [ErrBlockedAddress].
func CheckWebhookURL(raw string, allow []netip.Prefix) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidWebhookURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: scheme must be http or https, got %q", ErrInvalidWebhookURL, u.Scheme)
	}
	if u.Opaque != "" {
		return fmt.Errorf("%w: %q is not an absolute URL with a host", ErrInvalidWebhookURL, raw)
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("%w: the URL has no host", ErrInvalidWebhookURL)
	}
	if _, err := strconv.ParseUint(u.Port(), 10, 16); u.Port() != "" && err != nil {
		return fmt.Errorf("%w: invalid port %q", ErrInvalidWebhookURL, u.Port())
	}
	p := newAddressPolicy(allow)
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		// localhost resolves to loopback (RFC 6761): accept it when either
		// loopback address is allowed; the dialer checks the address used.
		if p.allowed(netip.MustParseAddr("127.0.0.1")) || p.allowed(netip.IPv6Loopback()) {
			return nil
		}
		return fmt.Errorf("%w: %s is a loopback name", ErrBlockedAddress, host)
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		var ok bool
		if addr, ok = parseLegacyIPv4(name); !ok {
			return nil // a host name: checked after resolution, at delivery
		}
	}
	return p.check(addr)
}

// parseLegacyIPv4 reads the numeric IPv4 forms of inet_aton(3), which some
// resolvers and browsers accept although [netip.ParseAddr] does not: one to
// four dot-separated parts, each decimal, octal (leading 0) or hexadecimal
// (leading 0x), the last part filling the remaining bytes (127.1 is
// 127.0.0.1, 2130706433 and 0x7f000001 are 127.0.0.1).
func parseLegacyIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, part := range parts {
		base, digits := 10, part
		switch {
		case strings.HasPrefix(part, "0x"):
			base, digits = 16, part[2:]
			if digits == "" {
				digits = "0"
			}
		case len(part) > 1 && part[0] == '0':
			base, digits = 8, part[1:]
		}
		if digits == "" || strings.ContainsAny(digits, "+-_") {
			return netip.Addr{}, false
		}
		v, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	last := len(vals) - 1
	for _, v := range vals[:last] {
		if v > 0xff {
			return netip.Addr{}, false
		}
	}
	if vals[last] >= 1<<(8*(4-last)) {
		return netip.Addr{}, false
	}
	n := vals[last]
	for i, v := range vals[:last] {
		n |= v << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}
