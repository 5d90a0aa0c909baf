package webhook

import (
	"context"
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckWebhookURL(t *testing.T) {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	tests := []struct {
		name    string
		url     string
		allow   []netip.Prefix
		wantErr error // nil: accepted
	}{
		{"public host name", "https://hooks.example.com/x", nil, nil},
		{"public IPv4", "http://93.184.216.34/hook", nil, nil},
		{"public IPv6", "http://[2606:2800:220:1::1]/hook", nil, nil},
		{"public IPv4 with port", "http://93.184.216.34:8443/hook", nil, nil},
		{"loopback", "http://127.0.0.1/", nil, ErrBlockedAddress},
		{"loopback elsewhere in 127/8", "http://127.5.6.7:9000/", nil, ErrBlockedAddress},
		{"loopback allowed", "http://127.0.0.1:8080/", loopback, nil},
		{"IPv6 loopback", "http://[::1]/", nil, ErrBlockedAddress},
		{"localhost", "http://localhost:8080/", nil, ErrBlockedAddress},
		{"localhost upper case, trailing dot", "http://LOCALHOST./", nil, ErrBlockedAddress},
		{"subdomain of localhost", "http://app.localhost/", nil, ErrBlockedAddress},
		{"localhost allowed through 127/8", "http://localhost:8080/", loopback, nil},
		{"RFC 1918 10/8", "http://10.1.2.3/", nil, ErrBlockedAddress},
		{"RFC 1918 172.16/12", "http://172.31.255.1/", nil, ErrBlockedAddress},
		{"just outside 172.16/12", "http://172.32.0.1/", nil, nil},
		{"RFC 1918 192.168/16", "http://192.168.1.1/", nil, ErrBlockedAddress},
		{"metadata", "http://169.254.169.254/latest/meta-data/", nil, ErrBlockedAddress},
		{"metadata not covered by a loopback allow", "http://169.254.169.254/", loopback, ErrBlockedAddress},
		{"CGNAT", "http://100.64.0.1/", nil, ErrBlockedAddress},
		{"unspecified IPv4", "http://0.0.0.0:8080/", nil, ErrBlockedAddress},
		{"unspecified IPv6", "http://[::]/", nil, ErrBlockedAddress},
		{"multicast", "http://224.0.0.1/", nil, ErrBlockedAddress},
		{"broadcast", "http://255.255.255.255/", nil, ErrBlockedAddress},
		{"unique local IPv6", "http://[fd00::1]/", nil, ErrBlockedAddress},
		{"AWS IPv6 metadata", "http://[fd00:ec2::254]/", nil, ErrBlockedAddress},
		{"link-local IPv6", "http://[fe80::1]/", nil, ErrBlockedAddress},
		{"link-local IPv6 with zone", "http://[fe80::1%25eth0]/", nil, ErrBlockedAddress},
		{"IPv6 multicast", "http://[ff02::1]/", nil, ErrBlockedAddress},
		// netip parses the IPv4-mapped form; it is judged as the IPv4 address.
		{"IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/", nil, ErrBlockedAddress},
		{"IPv4-mapped loopback, hex", "http://[::ffff:7f00:1]/", nil, ErrBlockedAddress},
		{"IPv4-mapped loopback allowed", "http://[::ffff:127.0.0.1]/", loopback, nil},
		{"IPv4-mapped public", "http://[::ffff:93.184.216.34]/", nil, nil},
		{"IPv4-compatible loopback", "http://[::127.0.0.1]/", nil, ErrBlockedAddress},
		{"NAT64 to metadata", "http://[64:ff9b::a9fe:a9fe]/", nil, ErrBlockedAddress},
		{"NAT64 to public", "http://[64:ff9b::5db8:d822]/", nil, nil},
		{"6to4 to private", "http://[2002:c0a8:101::1]/", nil, ErrBlockedAddress},
		{"6to4 to public: 6to4 is refused", "http://[2002:5db8:d822::1]/", nil, ErrBlockedAddress},
		{"IPv4-translated loopback", "http://[::ffff:0:7f00:1]/", nil, ErrBlockedAddress},
		{"IPv4-translated public", "http://[::ffff:0:5db8:d822]/", nil, ErrBlockedAddress},
		{"Teredo", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", nil, ErrBlockedAddress},
		{"IETF protocol assignments 192.0.0.0/24", "http://192.0.0.1/", nil, ErrBlockedAddress},
		{"benchmarking 198.18.0.0/15", "http://198.19.255.254/", nil, ErrBlockedAddress},
		{"just outside 198.18.0.0/15", "http://198.20.0.1/", nil, nil},
		{"documentation IPv6", "http://[2001:db8::1]/", nil, ErrBlockedAddress},
		{"NAT64 local use", "http://[64:ff9b:1::5db8:d822]/", nil, ErrBlockedAddress},
		// Ports: 80, 443 and from 1024 up; others only on an allowed network.
		{"port 443 on http", "http://93.184.216.34:443/", nil, nil},
		{"port 1024", "https://93.184.216.34:1024/", nil, nil},
		{"port 22", "http://93.184.216.34:22/", nil, ErrBlockedAddress},
		{"port 25 on a host name", "http://mail.example.com:25/", nil, ErrBlockedAddress},
		{"port 1023 on IPv6", "http://[2606:2800:220:1::1]:1023/", nil, ErrBlockedAddress},
		{"port 0", "http://hooks.example.com:0/", nil, ErrInvalidWebhookURL},
		{"port 22 on an allowed network", "http://127.0.0.1:22/", loopback, nil},
		{"port 22 on localhost, allowed", "http://localhost:22/", loopback, nil},
		{"port 22 on a public address outside the allowed network", "http://93.184.216.34:22/", loopback, ErrBlockedAddress},
		// Legacy numeric forms: netip and url do not read them as addresses,
		// but resolvers that follow inet_aton(3) (glibc getaddrinfo, used by
		// the cgo resolver) and browsers do; CheckWebhookURL reads them the
		// same way and refuses them at creation.
		{"hex integer 0x7f000001", "http://0x7f000001/", nil, ErrBlockedAddress},
		{"decimal integer 2130706433", "http://2130706433/", nil, ErrBlockedAddress},
		{"short form 127.1", "http://127.1/", nil, ErrBlockedAddress},
		{"octal 0177.0.0.1", "http://0177.0.0.1/", nil, ErrBlockedAddress},
		{"mixed 0xa9.254.0251.0376", "http://0xa9.254.0251.0376/", nil, ErrBlockedAddress},
		{"upper-case hex", "http://0X7F000001/", nil, ErrBlockedAddress},
		{"trailing dot", "http://127.0.0.1./", nil, ErrBlockedAddress},
		{"decimal integer of a public address", "http://1572395042/", nil, nil},
		// A name that resolves to loopback passes here; the dialer refuses
		// the resolved address at delivery (TestWebhookTransportRefusesResolvedLoopback).
		{"name resolving to loopback", "http://127.0.0.1.nip.io/", nil, nil},
		{"numbers that are no address are a host name", "http://1.2.3.4.5/", nil, nil},
		{"octal-looking name with an 8", "http://08.1/", nil, nil},
		{"empty", "", nil, ErrInvalidWebhookURL},
		{"relative", "/hooks", nil, ErrInvalidWebhookURL},
		{"ftp", "ftp://example.com/", nil, ErrInvalidWebhookURL},
		{"no host", "http:///path", nil, ErrInvalidWebhookURL},
		{"opaque", "http:example.com", nil, ErrInvalidWebhookURL},
		{"bad port", "http://example.com:99999/", nil, ErrInvalidWebhookURL},
		{"unparsable", "http://[::1/", nil, ErrInvalidWebhookURL},
		{"control character", "http://exa\x00mple.com/", nil, ErrInvalidWebhookURL},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckWebhookURL(tc.url, tc.allow)
			if tc.wantErr == nil {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.wantErr)
		})
	}
}

func TestParseLegacyIPv4(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when not an address
	}{
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0x7F.1", "127.0.0.1"},
		{"0X7f.1", ""}, // upper-case prefix: the caller lower-cases first
		{"0177.0.0.01", "127.0.0.1"},
		{"0", "0.0.0.0"},
		{"0x", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"4294967296", ""},
		{"256.1", ""},
		{"1.2.3.256", ""},
		{"1.2.65536", ""},
		{"1.2.3.4.5", ""},
		{"1..2", ""},
		{"", ""},
		{"+1", ""},
		{"-1", ""},
		{"1_000", ""},
		{"example", ""},
		{"09", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := parseLegacyIPv4(tc.in)
			if tc.want == "" {
				assert.False(t, ok, "got %s", got)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tc.want, got.String())
		})
	}
}

// TestDialControl checks the connection-time guard on the resolved address,
// the one that catches host names resolving to internal addresses.
func TestDialControl(t *testing.T) {
	tests := []struct {
		addr    string
		allow   string
		blocked bool
	}{
		{"127.0.0.1:80", "", true},
		{"127.0.0.1:80", "127.0.0.0/8", false},
		{"[::1]:80", "127.0.0.0/8", true},
		{"[::1]:80", "::1/128", false},
		{"[::ffff:127.0.0.1]:80", "", true},
		{"[::ffff:127.0.0.1]:80", "127.0.0.0/8", false},
		{"[::ffff:10.0.0.1]:80", "127.0.0.0/8", true},
		{"169.254.169.254:80", "", true},
		{"100.100.100.200:80", "", true},
		{"[fe80::1%eth0]:80", "", true},
		{"10.0.0.1:443", "10.0.0.0/24", false},
		{"10.0.0.1:25", "10.0.0.0/24", false},
		{"93.184.216.34:25", "", true},
		{"93.184.216.34:80", "", false},
		{"93.184.216.34:8080", "", false},
		{"198.18.0.1:443", "", true},
		{"[::ffff:0:7f00:1]:80", "", true},
		{"[64:ff9b::7f00:1]:80", "", true},
		{"10.0.1.1:443", "10.0.0.0/24", true},
		{"93.184.216.34:443", "", false},
		{"[2606:2800:220:1::1]:443", "", false},
		{"not an address", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.addr+" allow "+tc.allow, func(t *testing.T) {
			var allow []netip.Prefix
			if tc.allow != "" {
				allow = append(allow, netip.MustParsePrefix(tc.allow))
			}
			err := newAddressPolicy(allow).control("tcp", tc.addr, nil)
			if tc.blocked {
				assert.ErrorIs(t, err, ErrBlockedAddress)
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

// TestWebhookTransportRefusesResolvedLoopback dials through the delivery
// transport: "localhost" passes no literal check, but the address it
// resolves to is refused when connecting, before any byte is sent.
func TestWebhookTransportRefusesResolvedLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	require.NoError(t, err)

	tr := webhookTransport(newAddressPolicy(nil))
	defer tr.CloseIdleConnections()
	_, err = tr.DialContext(context.Background(), "tcp", net.JoinHostPort("localhost", port))
	assert.ErrorIs(t, err, ErrBlockedAddress)

	allowed := webhookTransport(newAddressPolicy([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}))
	defer allowed.CloseIdleConnections()
	c, err := allowed.DialContext(context.Background(), "tcp", ln.Addr().String())
	require.NoError(t, err)
	assert.NoError(t, c.Close())
}

func TestCheckWebhookURLMessages(t *testing.T) {
	for raw, want := range map[string]string{
		"http://169.254.169.254/":    "webhook address not allowed: 169.254.169.254 is a link-local address (cloud metadata lives here)",
		"http://[::ffff:10.0.0.1]/":  "webhook address not allowed: ::ffff:10.0.0.1 is a private address (IPv4-mapped)",
		"http://localhost/":          "webhook address not allowed: localhost is a loopback name",
		"http://0x7f000001/":         "webhook address not allowed: 127.0.0.1 is a loopback address",
		"gopher://example.com/":      `invalid webhook URL: scheme must be http or https, got "gopher"`,
		"http://[64:ff9b::a00:1]:80": "webhook address not allowed: 64:ff9b::a00:1 is a private address (10.0.0.1 through NAT64)",
		"http://[2002:a00:1::1]/":    "webhook address not allowed: 2002:a00:1::1 is a 6to4 address, leading to 10.0.0.1, a private address",
		"http://198.18.0.1/":         "webhook address not allowed: 198.18.0.1 is a benchmarking address",
		"http://93.184.216.34:25/":   "webhook address not allowed: port 25: webhooks use 80, 443 or a port from 1024 up, other ports only on an allowed network",
	} {
		err := CheckWebhookURL(raw, nil)
		assert.EqualError(t, err, want, raw)
		assert.NotContains(t, err.Error(), "exporttask", "API clients see this text")
	}
}

// TestSpecialRangesBlocked checks addresses from each entry of the IANA
// special-purpose registries, written out here from the registries rather
// than from the table, sub-entries included.
func TestSpecialRangesBlocked(t *testing.T) {
	for _, a := range []string{
		// IPv4 registry.
		"0.0.0.0", "0.255.255.255", "10.0.0.0", "10.255.255.255", "100.64.0.0", "100.127.255.255",
		"127.0.0.1", "169.254.0.1", "172.16.0.1", "172.31.255.255",
		"192.0.0.0", "192.0.0.7", "192.0.0.8", "192.0.0.9", "192.0.0.10", "192.0.0.170", "192.0.0.171", "192.0.0.255",
		"192.0.2.1", "192.31.196.1", "192.52.193.1", "192.88.99.1", "192.168.0.1", "192.175.48.1",
		"198.18.0.0", "198.19.255.255", "198.51.100.1", "203.0.113.1", "240.0.0.1", "255.255.255.255",
		// IPv4 multicast.
		"224.0.0.1", "239.255.255.255",
		// IPv6 registry.
		"::1", "::", "::ffff:127.0.0.1", "64:ff9b::7f00:1", "64:ff9b:1::1", "100::1", "100::ffff:ffff:ffff:ffff",
		"100:0:0:1::1", "2001::1", "2001:1::1", "2001:1::2", "2001:1::3", "2001:2::1", "2001:3::1",
		"2001:4:112::1", "2001:10::1", "2001:20::1", "2001:30::1", "2001:1ff:ffff::1", "2001:db8::1",
		"2002::1", "2620:4f:8000::1", "3fff::1", "3fff:fff::1", "5f00::1", "fc00::1", "fdff::1", "fe80::1", "febf::1",
		// Not in the registries: IPv4-compatible, IPv4-translated, site-local, multicast.
		"::7f00:1", "::a00:1", "::ffff:0:7f00:1", "::ffff:0:a00:1", "fec0::1", "ff02::1",
	} {
		t.Run(a, func(t *testing.T) {
			assert.ErrorIs(t, newAddressPolicy(nil).check(netip.MustParseAddr(a)), ErrBlockedAddress)
		})
	}
	for _, a := range []string{
		"1.1.1.1", "8.8.8.8", "192.0.1.1", "192.0.3.1", "198.17.255.255", "198.20.0.0", "223.255.255.255",
		"::ffff:8.8.8.8", "64:ff9b::808:808", "2606:4700::1111", "2001:200::1", "2003::1", "3ffe::1", "4000::1",
	} {
		t.Run(a+" passes", func(t *testing.T) {
			assert.NoError(t, newAddressPolicy(nil).check(netip.MustParseAddr(a)))
		})
	}
}

// TestSpecialRangesTable checks each entry of the table at its first and
// last address, and that an entry is not hidden by an earlier, wider one.
func TestSpecialRangesTable(t *testing.T) {
	p := newAddressPolicy(nil)
	ranges := specialRanges()
	for i, r := range ranges {
		first := r.prefix.Masked().Addr()
		last := lastAddr(r.prefix)
		for _, a := range []netip.Addr{first, last} {
			if r.byEmbedded {
				continue // judged by the IPv4 address; TestSpecialRangesBlocked covers them
			}
			assert.ErrorIs(t, p.check(a), ErrBlockedAddress, "%s in %s", a, r.prefix)
		}
		for _, earlier := range ranges[:i] {
			assert.False(t, earlier.prefix.Contains(first) && earlier.prefix.Bits() <= r.prefix.Bits(),
				"%s is hidden by %s, listed before it", r.prefix, earlier.prefix)
		}
	}
}

// lastAddr is the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
