package exporttask

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSignWebhookFormat(t *testing.T) {
	at := time.Unix(1763717400, 999_000_000)
	body := []byte(`{"event":"TASK_STARTED"}`)
	h := SignWebhook("secret", "7", at, body)
	assert.Regexp(t, `^t=1763717400,v2=[0-9a-f]{64}$`, h)
	assert.Equal(t, h, SignWebhook("secret", "7", at, body), "deterministic")
	assert.NotEqual(t, h, SignWebhook("other", "7", at, body))
	assert.NotEqual(t, h, SignWebhook("secret", "8", at, body), "the delivery id is signed")
	assert.NotEqual(t, h, SignWebhook("secret", "7", at.Add(time.Second), body))
}

func TestCustomerWebhookSecret(t *testing.T) {
	master := []byte("master")
	acme := CustomerWebhookSecret(master, "acme")
	assert.Regexp(t, `^whsec_[0-9a-f]{64}$`, acme)
	assert.Equal(t, acme, CustomerWebhookSecret(master, "acme"), "derived, so stable")
	assert.NotEqual(t, acme, CustomerWebhookSecret(master, "globex"))
	assert.NotEqual(t, acme, CustomerWebhookSecret([]byte("other master"), "acme"))

	// One customer's secret cannot sign another customer's deliveries.
	at := time.Unix(1763717400, 0)
	body := []byte(`{"event":"TASK_COMPLETED"}`)
	forged := SignWebhook(acme, "1", at, body)
	err := VerifyWebhook(CustomerWebhookSecret(master, "globex"), forged, "1", body, at, 0)
	assert.ErrorIs(t, err, ErrSignatureMismatch)
	assert.NoError(t, VerifyWebhook(acme, forged, "1", body, at, 0))
}

func TestVerifyWebhook(t *testing.T) {
	secret := "s3cr3t"
	body := []byte(`{"event":"TASK_COMPLETED","data":{"id":7}}`)
	at := time.Unix(1763717400, 0)
	good := SignWebhook(secret, "42", at, body)
	sig := strings.TrimPrefix(good, "t=1763717400,v2=")
	other := strings.TrimPrefix(SignWebhook("old secret", "42", at, body), "t=1763717400,v2=")

	tests := []struct {
		name      string
		secret    string
		header    string
		delivery  string
		body      []byte
		now       time.Time
		tolerance time.Duration
		want      error
	}{
		{"valid", secret, good, "42", body, at, time.Minute, nil},
		{"valid within tolerance, late", secret, good, "42", body, at.Add(59 * time.Second), time.Minute, nil},
		{"valid within tolerance, early clock", secret, good, "42", body, at.Add(-59 * time.Second), time.Minute, nil},
		{"spaces and an unknown key", secret, " t=1763717400 , v1=zz, v2=" + sig + " ", "42", body, at, time.Minute, nil},
		{"rotation: one of two v2 matches", secret, "t=1763717400,v2=" + other + ",v2=" + sig, "42", body, at, time.Minute, nil},
		{"default tolerance accepts 4 minutes", secret, good, "42", body, at.Add(4 * time.Minute), 0, nil},
		{"default tolerance refuses 6 minutes", secret, good, "42", body, at.Add(6 * time.Minute), 0, ErrSignatureStale},
		{"stale", secret, good, "42", body, at.Add(2 * time.Minute), time.Minute, ErrSignatureStale},
		{"from the future", secret, good, "42", body, at.Add(-2 * time.Minute), time.Minute, ErrSignatureStale},
		{"body changed", secret, good, "42", []byte(`{"event":"TASK_COMPLETED","data":{"id":8}}`), at, time.Minute, ErrSignatureMismatch},
		{"wrong secret", "nope", good, "42", body, at, time.Minute, ErrSignatureMismatch},
		{"timestamp changed", secret, "t=1763717401,v2=" + sig, "42", body, at, time.Minute, ErrSignatureMismatch},
		{"stale and wrong: mismatch first", "nope", good, "42", body, at.Add(time.Hour), time.Minute, ErrSignatureMismatch},
		{"delivery id changed", secret, good, "43", body, at, time.Minute, ErrSignatureMismatch},
		{"no delivery id", secret, good, "", body, at, time.Minute, ErrSignatureMalformed},
		{"a v1 signature only", secret, "t=1763717400,v1=" + sig, "42", body, at, time.Minute, ErrSignatureMalformed},
		{"empty", secret, "", "42", body, at, time.Minute, ErrSignatureMalformed},
		{"no timestamp", secret, "v2=" + sig, "42", body, at, time.Minute, ErrSignatureMalformed},
		{"no signature", secret, "t=1763717400", "42", body, at, time.Minute, ErrSignatureMalformed},
		{"two timestamps", secret, "t=1,t=1763717400,v2=" + sig, "42", body, at, time.Minute, ErrSignatureMalformed},
		{"negative timestamp", secret, "t=-5,v2=" + sig, "42", body, at, time.Minute, ErrSignatureMalformed},
		{"timestamp not a number", secret, "t=now,v2=" + sig, "42", body, at, time.Minute, ErrSignatureMalformed},
		{"timestamp overflows", secret, "t=99999999999999999999,v2=" + sig, "42", body, at, time.Minute, ErrSignatureMalformed},
		{"signature not hex", secret, "t=1763717400,v2=" + strings.Repeat("g", 64), "42", body, at, time.Minute, ErrSignatureMalformed},
		{"signature too short", secret, "t=1763717400,v2=" + sig[:62], "42", body, at, time.Minute, ErrSignatureMalformed},
		{"item without =", secret, "t=1763717400;v2=" + sig, "42", body, at, time.Minute, ErrSignatureMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyWebhook(tc.secret, tc.header, tc.delivery, tc.body, tc.now, tc.tolerance)
			if tc.want == nil {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			for _, other := range []error{ErrSignatureMalformed, ErrSignatureMismatch, ErrSignatureStale} {
				if other != tc.want {
					assert.NotErrorIs(t, err, other)
				}
			}
		})
	}
}
