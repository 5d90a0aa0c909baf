package webhook

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
)

// ErrInvalidWebhookURL is wrapped by the errors of [CheckWebhookURL] for a
// URL that is not an absolute http or https URL with a host. Its text is
// meant for API clients, so it names no Go package.
var ErrInvalidWebhookURL = errors.New("invalid webhook URL")

// ErrBlockedAddress is wrapped by the errors of [CheckWebhookURL] and of
// webhook deliveries when the target is an address webhooks may not reach
// (a special-purpose address, see [specialRanges], or a port other than
// 80, 443 or 1024 and above) and no allowed prefix covers it. Its text is
// meant for API clients, so it names no Go package.
var ErrBlockedAddress = errors.New("webhook address not allowed")

// embedding says whether and where an IPv6 range carries an IPv4 address.
type embedding int

const (
	embedsNothing embedding = iota
	embedsLast32            // the last 32 bits (IPv4-mapped, -compatible, -translated, NAT64)
	embeds6to4              // bits 16 to 47 (RFC 3056)
	embedsTeredo            // the server in bits 32 to 63, the client inverted in the last 32 (RFC 4380)
)

// specialRange is an address range webhooks may not reach unless allowed.
type specialRange struct {
	prefix netip.Prefix
	why    string // what the range is, for errors: "a loopback address"
	embeds embedding
	// byEmbedded: the range only says how to reach the IPv4 address it
	// embeds (IPv4-mapped, well-known NAT64), so an address in it is judged
	// by that IPv4 address alone. Otherwise the range is refused, and the
	// embedded address, when refused too, is named in the error.
	byEmbedded bool
}

// specialRanges lists every range of the IANA IPv4 Special-Purpose Address
// Registry (https://www.iana.org/assignments/iana-ipv4-special-registry/)
// and of the IANA IPv6 Special-Purpose Address Registry
// (https://www.iana.org/assignments/iana-ipv6-special-registry/), as of
// 2026, whether or not the registry calls the range globally reachable (no
// webhook receiver lives at an anycast relay, a documentation or a
// benchmarking address). It adds the multicast blocks, the deprecated
// IPv6 site-local and IPv4-compatible forms, and the IPv4-translated form
// of SIIT, which are not in those registries. A more specific range comes
// before the range that holds it, so that errors name the closest one.
func specialRanges() []specialRange {
	r := func(prefix, why string) specialRange {
		return specialRange{prefix: netip.MustParsePrefix(prefix), why: why}
	}
	embedded := func(prefix, why string, e embedding, byEmbedded bool) specialRange {
		return specialRange{netip.MustParsePrefix(prefix), why, e, byEmbedded}
	}
	return []specialRange{
		// IPv4 Special-Purpose Address Registry.
		r("0.0.0.0/8", "an unspecified (this-network) address"),                                // RFC 791
		r("10.0.0.0/8", "a private address"),                                                   // RFC 1918
		r("100.64.0.0/10", "a carrier-grade NAT address"),                                      // RFC 6598
		r("127.0.0.0/8", "a loopback address"),                                                 // RFC 1122
		r("169.254.0.0/16", "a link-local address (cloud metadata lives here)"),                // RFC 3927
		r("172.16.0.0/12", "a private address"),                                                // RFC 1918
		r("192.0.0.0/24", "an IETF protocol assignment (DS-Lite, PCP, TURN, NAT64 discovery)"), // RFC 6890
		r("192.0.2.0/24", "a documentation address (TEST-NET-1)"),                              // RFC 5737
		r("192.31.196.0/24", "an AS112 address"),                                               // RFC 7535
		r("192.52.193.0/24", "an AMT relay address"),                                           // RFC 7450
		r("192.88.99.0/24", "a 6to4 relay anycast address"),                                    // RFC 7526
		r("192.168.0.0/16", "a private address"),                                               // RFC 1918
		r("192.175.48.0/24", "an AS112 address"),                                               // RFC 7534
		r("198.18.0.0/15", "a benchmarking address"),                                           // RFC 2544
		r("198.51.100.0/24", "a documentation address (TEST-NET-2)"),                           // RFC 5737
		r("203.0.113.0/24", "a documentation address (TEST-NET-3)"),                            // RFC 5737
		r("255.255.255.255/32", "the broadcast address"),                                       // RFC 919
		r("240.0.0.0/4", "a reserved address"),                                                 // RFC 1112
		// IPv4 multicast (RFC 5771).
		r("224.0.0.0/4", "a multicast address"),

		// IPv6 Special-Purpose Address Registry.
		r("::1/128", "a loopback address"),                                                     // RFC 4291
		r("::/128", "an unspecified address"),                                                  // RFC 4291
		embedded("::ffff:0:0/96", "IPv4-mapped", embedsLast32, true),                           // RFC 4291
		embedded("64:ff9b::/96", "NAT64", embedsLast32, true),                                  // RFC 6052
		r("64:ff9b:1::/48", "a local-use NAT64 address"),                                       // RFC 8215
		r("100::/64", "a discard-only address"),                                                // RFC 6666
		r("100:0:0:1::/64", "a dummy address"),                                                 // RFC 9780
		embedded("2001::/32", "a Teredo address", embedsTeredo, false),                         // RFC 4380
		r("2001:2::/48", "a benchmarking address"),                                             // RFC 5180
		r("2001::/23", "an IETF protocol assignment (anycast, AMT, AS112, ORCHID, drone ids)"), // RFC 2928
		r("2001:db8::/32", "a documentation address"),                                          // RFC 3849
		embedded("2002::/16", "a 6to4 address", embeds6to4, false),                             // RFC 3056
		r("2620:4f:8000::/48", "an AS112 address"),                                             // RFC 7534
		r("3fff::/20", "a documentation address"),                                              // RFC 9637
		r("5f00::/16", "a segment routing (SRv6) address"),                                     // RFC 9602
		r("fc00::/7", "a private (unique local) address"),                                      // RFC 4193
		r("fe80::/10", "a link-local address"),                                                 // RFC 4291
		// Not in the registry.
		embedded("::/96", "a deprecated IPv4-compatible address", embedsLast32, false),        // RFC 4291, 2.5.5.1
		embedded("::ffff:0:0:0/96", "an IPv4-translated (SIIT) address", embedsLast32, false), // RFC 2765
		r("fec0::/10", "a deprecated site-local address"),                                     // RFC 3879
		r("ff00::/8", "a multicast address"),                                                  // RFC 4291
	}
}

// addressPolicy decides which IP addresses and ports webhooks may reach.
type addressPolicy struct {
	allow   []netip.Prefix
	special []specialRange
}

func newAddressPolicy(allow []netip.Prefix) *addressPolicy {
	p := &addressPolicy{special: specialRanges()}
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

// openPort reports whether webhooks may use port n on any address they may
// reach: 80, 443, or 1024 and above. Others (SSH, SMTP, ...) only on an
// address inside an allowed prefix.
func openPort(n uint16) bool {
	return n == 80 || n == 443 || n >= 1024
}

// checkPort returns nil when webhooks may reach port n on a.
func (p *addressPolicy) checkPort(a netip.Addr, n uint16) error {
	if openPort(n) || p.allowed(a) {
		return nil
	}
	return fmt.Errorf("%w: port %d: webhooks use 80, 443 or a port from 1024 up, other ports only on an allowed network", ErrBlockedAddress, n)
}

// blockedReason returns why a is blocked, or "" when it is not: the first
// special range that holds it, with what its embedded IPv4 address is.
func (p *addressPolicy) blockedReason(a netip.Addr) string {
	for _, r := range p.special {
		if !r.prefix.Contains(a) {
			continue
		}
		v4s := embeddedIPv4(a, r.embeds)
		if r.byEmbedded {
			if p.allowed(v4s[0]) {
				return ""
			}
			why := p.blockedReason(v4s[0])
			switch {
			case why == "":
				return ""
			case a.Is4In6():
				return why + " (IPv4-mapped)"
			}
			return why + " (" + v4s[0].String() + " through " + r.why + ")"
		}
		for _, v4 := range v4s {
			if why := p.blockedReason(v4); why != "" {
				return r.why + ", leading to " + v4.String() + ", " + why
			}
		}
		return r.why
	}
	return ""
}

// embeddedIPv4 returns the IPv4 addresses that a, in a range of kind e,
// carries: none, one, or two for Teredo (its server and its client).
func embeddedIPv4(a netip.Addr, e embedding) []netip.Addr {
	b := a.As16()
	switch e {
	case embedsLast32:
		return []netip.Addr{netip.AddrFrom4([4]byte(b[12:16]))}
	case embeds6to4:
		return []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}
	case embedsTeredo:
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		return []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4(client)}
	}
	return nil
}

// control is a [net.Dialer] Control function: it runs after DNS resolution,
// on the address about to be dialed, and refuses blocked ones. It fails
// closed on an address it cannot parse.
func (p *addressPolicy) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot parse dialed address %q", ErrBlockedAddress, address)
	}
	if err := p.check(ap.Addr()); err != nil {
		return err
	}
	return p.checkPort(ap.Addr(), ap.Port())
}

// CheckWebhookURL checks a webhook URL when a task is created, and before
// each delivery: it must be an absolute http or https URL with a host and
// at most one port, and it is judged in the form [NormalizeURL] gives,
// the host the dialer reaches; when the host is a literal IP
// address or localhost, that address must be one webhooks may reach; and
// its port must be 80, 443 or from 1024 up, unless the host is an address
// (or localhost) inside a prefix of allow.
//
// Refused unless inside a prefix of allow: every range of the IANA IPv4 and
// IPv6 Special-Purpose Address Registries (loopback and the name
// localhost, private, link-local with the cloud metadata address
// 169.254.169.254, unspecified, carrier-grade NAT, documentation,
// benchmarking, protocol assignments, ...), multicast, and IPv6 forms that
// embed a refused IPv4 address: IPv4-mapped ::ffff:a.b.c.d and NAT64
// 64:ff9b::/96 are judged by the IPv4 address they lead to, while
// IPv4-compatible, IPv4-translated, 6to4 and Teredo addresses are refused
// altogether. Hosts written as the legacy numeric IPv4 forms that some
// resolvers accept (0x7f000001, 2130706433, 0177.0.0.1, 127.1) are read as
// the address they denote and judged as such.
//
// Host names are not resolved here: DNS can change between creation and
// delivery, so deliveries check every address and port after resolution,
// when connecting. A host name with a port outside 80, 443 and 1024 up is
// refused here, since only an allowed address may use such a port. Errors
// wrap [ErrInvalidWebhookURL] or [ErrBlockedAddress]; their texts name no
// Go package, for they reach API clients.
func CheckWebhookURL(raw string, allow []netip.Prefix) error {
	w, err := parseWebhookURL(raw)
	if err != nil {
		return err
	}
	host, port := w.host, w.port
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
			// A host name: its addresses are checked after resolution, at
			// delivery; only an allowed address may use a closed port.
			if !openPort(port) {
				return fmt.Errorf("%w: port %d: webhooks use 80, 443 or a port from 1024 up, other ports only on an allowed network named by its address", ErrBlockedAddress, port)
			}
			return nil
		}
	}
	if err := p.check(addr); err != nil {
		return err
	}
	return p.checkPort(addr, port)
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
