package webhook

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestFailureClass: the errors an attempt without an answer ends with, as
// the HTTP client wraps them, get the class the API shows for them.
func TestFailureClass(t *testing.T) {
	post := func(err error) error { return &url.Error{Op: "Post", URL: "http://h/", Err: err} }
	dial := func(err error) error { return post(&net.OpError{Op: "dial", Net: "tcp", Err: err}) }
	invalid := CheckWebhookURL("http:///x", nil)
	require.ErrorIs(t, invalid, ErrInvalidWebhookURL)
	for _, tc := range []struct {
		name      string
		err       error
		tlsFailed bool
		want      exporttask.DeliveryErrorClass
	}{
		{"attempt deadline", post(context.DeadlineExceeded), false, exporttask.DeliveryErrorTimeout},
		{"dial timeout", dial(os.ErrDeadlineExceeded), false, exporttask.DeliveryErrorTimeout},
		{"DNS timeout", dial(&net.DNSError{Err: "i/o timeout", Name: "h", IsTimeout: true}), false, exporttask.DeliveryErrorTimeout},
		{"refused", dial(&os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}), false, exporttask.DeliveryErrorConnection},
		{"reset", post(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}), false, exporttask.DeliveryErrorConnection},
		{"closed early", post(io.ErrUnexpectedEOF), false, exporttask.DeliveryErrorConnection},
		{"no such host", dial(&net.DNSError{Err: "no such host", Name: "nope.invalid", IsNotFound: true}), false, exporttask.DeliveryErrorDNS},
		{"server misbehaving", dial(&net.DNSError{Err: "server misbehaving", Name: "h"}), false, exporttask.DeliveryErrorDNS},
		{"unknown authority", post(&tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), false, exporttask.DeliveryErrorTLS},
		{"wrong host", post(x509.HostnameError{Host: "h"}), false, exporttask.DeliveryErrorTLS},
		{"expired", post(x509.CertificateInvalidError{Reason: x509.Expired}), false, exporttask.DeliveryErrorTLS},
		{"not TLS", post(tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}), false, exporttask.DeliveryErrorTLS},
		{"handshake failed", post(errors.New("remote error: tls: handshake failure")), true, exporttask.DeliveryErrorTLS},
		{"blocked on dial", dial(fmt.Errorf("%w: 10.0.0.1 is a private address", ErrBlockedAddress)), false, exporttask.DeliveryErrorAddressNotAllowed},
		{"blocked before", fmt.Errorf("%w: 127.0.0.1 is a loopback address", ErrBlockedAddress), false, exporttask.DeliveryErrorAddressNotAllowed},
		{"invalid URL", invalid, false, exporttask.DeliveryErrorAddressNotAllowed},
	} {
		assert.Equal(t, tc.want, failureClass(tc.err, tc.tlsFailed), "%s: %v", tc.name, tc.err)
	}
}
