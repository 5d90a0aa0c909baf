package webhook

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"

	"github.com/openapi-viewer/viewer/exporttask"
)

// failureClass says why a request that got no answer failed, from the
// error's types: the address policy's refusal ([ErrBlockedAddress],
// [ErrInvalidWebhookURL]), then a timeout (the attempt's deadline, a
// dial, read or TLS handshake timeout), then a failed DNS lookup
// (*net.DNSError), then a failed TLS handshake (tlsFailed, which the
// request's trace sets, or a TLS or certificate error), else CONNECTION.
func failureClass(err error, tlsFailed bool) exporttask.DeliveryErrorClass {
	var (
		netErr  net.Error
		dnsErr  *net.DNSError
		certErr *tls.CertificateVerificationError
		recErr  tls.RecordHeaderError
		alert   tls.AlertError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
	)
	switch {
	case errors.Is(err, ErrBlockedAddress), errors.Is(err, ErrInvalidWebhookURL):
		return exporttask.DeliveryErrorAddressNotAllowed
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return exporttask.DeliveryErrorTimeout
	case errors.As(err, &dnsErr):
		return exporttask.DeliveryErrorDNS
	case tlsFailed, errors.As(err, &certErr), errors.As(err, &recErr), errors.As(err, &alert),
		errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &invalid):
		return exporttask.DeliveryErrorTLS
	}
	return exporttask.DeliveryErrorConnection
}
