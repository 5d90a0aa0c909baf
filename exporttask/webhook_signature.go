package exporttask

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the request header that carries a webhook's signature.
const SignatureHeader = "X-Export-Signature"

// DefaultSignatureTolerance is how far a signature's timestamp may be from
// the receiver's clock when [VerifyWebhook] is given no tolerance.
const DefaultSignatureTolerance = 5 * time.Minute

// The errors of [VerifyWebhook].
var (
	// ErrSignatureMalformed: the header is not "t=<unix seconds>,v1=<hex>".
	ErrSignatureMalformed = errors.New("exporttask: malformed webhook signature header")
	// ErrSignatureStale: the signature is valid but its timestamp is
	// outside the tolerance window (a replay, or a skewed clock).
	ErrSignatureStale = errors.New("exporttask: webhook signature timestamp outside the tolerance window")
	// ErrSignatureMismatch: no v1 signature matches the body and secret.
	ErrSignatureMismatch = errors.New("exporttask: webhook signature does not match")
)

// SignWebhook returns the X-Export-Signature header value for a webhook body
// sent at time t: "t=<unix seconds>,v1=<hex HMAC-SHA256>", the HMAC keyed
// with secret and computed over "<unix seconds>.<body>". Binding the
// timestamp into the HMAC lets receivers refuse replays of old deliveries.
func SignWebhook(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(webhookMAC(secret, ts, body))
}

func webhookMAC(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// VerifyWebhook checks a webhook's X-Export-Signature header against the
// raw request body (exactly the bytes received) and secret. It succeeds when
// one of the header's v1 signatures matches (several may be present while a
// secret is rotated; unknown keys are ignored) and the timestamp is within
// tolerance of now, in either direction. A tolerance of zero or less means
// [DefaultSignatureTolerance]. Signatures are compared in constant time.
//
// Errors wrap [ErrSignatureMalformed], [ErrSignatureMismatch] or
// [ErrSignatureStale], checked in that order.
func VerifyWebhook(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	ts, sigs, err := parseSignatureHeader(header)
	if err != nil {
		return err
	}
	want := webhookMAC(secret, ts, body)
	matched := false
	for _, s := range sigs {
		// Evaluate every candidate, so timing does not reveal which matched.
		if hmac.Equal(s, want) {
			matched = true
		}
	}
	if !matched {
		return ErrSignatureMismatch
	}
	if tolerance <= 0 {
		tolerance = DefaultSignatureTolerance
	}
	sec, _ := strconv.ParseInt(ts, 10, 64) // checked by parseSignatureHeader
	at := time.Unix(sec, 0)
	if skew := now.Sub(at); skew > tolerance || skew < -tolerance {
		return fmt.Errorf("%w: signed at %s, %s from now (tolerance %s)",
			ErrSignatureStale, at.UTC().Format(time.RFC3339), skew.Round(time.Second), tolerance)
	}
	return nil
}

// parseSignatureHeader splits "t=<digits>,v1=<hex>[,v1=<hex>...]" into the
// timestamp text and the decoded signatures.
func parseSignatureHeader(header string) (ts string, sigs [][]byte, err error) {
	if strings.TrimSpace(header) == "" {
		return "", nil, fmt.Errorf("%w: empty header", ErrSignatureMalformed)
	}
	for _, item := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return "", nil, fmt.Errorf("%w: %q is not key=value", ErrSignatureMalformed, item)
		}
		switch k {
		case "t":
			if ts != "" {
				return "", nil, fmt.Errorf("%w: more than one timestamp", ErrSignatureMalformed)
			}
			if !isDigits(v) {
				return "", nil, fmt.Errorf("%w: timestamp %q is not unix seconds", ErrSignatureMalformed, v)
			}
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return "", nil, fmt.Errorf("%w: timestamp %q out of range", ErrSignatureMalformed, v)
			}
			ts = v
		case "v1":
			b, err := hex.DecodeString(v)
			if err != nil || len(b) != sha256.Size {
				return "", nil, fmt.Errorf("%w: v1 must be %d hex digits", ErrSignatureMalformed, 2*sha256.Size)
			}
			sigs = append(sigs, b)
		}
	}
	if ts == "" {
		return "", nil, fmt.Errorf("%w: no t= timestamp", ErrSignatureMalformed)
	}
	if len(sigs) == 0 {
		return "", nil, fmt.Errorf("%w: no v1= signature", ErrSignatureMalformed)
	}
	return ts, sigs, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
