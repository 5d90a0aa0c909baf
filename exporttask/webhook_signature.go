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

// DefaultSignatureTolerance is how far a signature's timestamp may be from
// the receiver's clock when [VerifyWebhook] is given no tolerance.
const DefaultSignatureTolerance = 5 * time.Minute

// The errors of [VerifyWebhook]: Malformed, the header is not
// "t=<unix seconds>,v2=<hex>" or the delivery id is empty; Mismatch, no v2
// signature matches the delivery id, body and secret; Stale, a valid
// signature whose timestamp is outside the tolerance (a replay, or a skewed
// clock).
var (
	ErrSignatureMalformed = errors.New("exporttask: malformed webhook signature header")
	ErrSignatureStale     = errors.New("exporttask: webhook signature timestamp outside the tolerance window")
	ErrSignatureMismatch  = errors.New("exporttask: webhook signature does not match")
)

// secretLabel separates the derivation of webhook secrets from any other
// use of the master secret.
const secretLabel = "exporttask webhook secret v2\x00"

// CustomerWebhookSecret returns the secret that signs customer's webhooks:
// "whsec_" and the hex HMAC-SHA256, keyed with the server's master secret,
// of a fixed label and the customer id. It is derived, not stored; a
// customer reads its own with GET /webhook-secret.
func CustomerWebhookSecret(master []byte, customer string) string {
	m := hmac.New(sha256.New, master)
	m.Write([]byte(secretLabel))
	m.Write([]byte(customer))
	return "whsec_" + hex.EncodeToString(m.Sum(nil))
}

// SignWebhook returns the X-Export-Signature value of delivery deliveryID
// with body, sent at t: "t=<unix seconds>,v2=<hex HMAC-SHA256>", keyed with
// secret, over "<deliveryID>.<unix seconds>.<body>".
func SignWebhook(secret, deliveryID string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v2=" + hex.EncodeToString(webhookMAC(secret, deliveryID, ts, body))
}

func webhookMAC(secret, deliveryID, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(deliveryID))
	m.Write([]byte{'.'})
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// VerifyWebhook checks a webhook's X-Export-Signature header against its
// delivery id (X-Export-Delivery), the raw body and the customer's secret:
// one v2 signature must match (others and unknown keys are ignored) and the
// timestamp be within tolerance of now ([DefaultSignatureTolerance] for 0 or
// less). Errors wrap [ErrSignatureMalformed], [ErrSignatureMismatch] or
// [ErrSignatureStale], checked in that order.
func VerifyWebhook(secret, header, deliveryID string, body []byte, now time.Time, tolerance time.Duration) error {
	if deliveryID == "" {
		return fmt.Errorf("%w: empty %s", ErrSignatureMalformed, DeliveryHeader)
	}
	ts, sigs, err := parseSignatureHeader(header)
	if err != nil {
		return err
	}
	want := webhookMAC(secret, deliveryID, ts, body)
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

// parseSignatureHeader splits "t=<digits>,v2=<hex>[,v2=<hex>...]" into the
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
		case "v2":
			b, err := hex.DecodeString(v)
			if err != nil || len(b) != sha256.Size {
				return "", nil, fmt.Errorf("%w: v2 must be %d hex digits", ErrSignatureMalformed, 2*sha256.Size)
			}
			sigs = append(sigs, b)
		}
	}
	if ts == "" {
		return "", nil, fmt.Errorf("%w: no t= timestamp", ErrSignatureMalformed)
	}
	if len(sigs) == 0 {
		return "", nil, fmt.Errorf("%w: no v2= signature", ErrSignatureMalformed)
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
