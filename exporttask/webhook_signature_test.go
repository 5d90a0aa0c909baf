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
	h := SignWebhook([]byte("secret"), at, []byte(`{"event":"TASK_STARTED"}`))
	assert.Regexp(t, `^t=1763717400,v1=[0-9a-f]{64}$`, h)
	assert.Equal(t, h, SignWebhook([]byte("secret"), at, []byte(`{"event":"TASK_STARTED"}`)), "deterministic")
	assert.NotEqual(t, h, SignWebhook([]byte("other"), at, []byte(`{"event":"TASK_STARTED"}`)))
	assert.NotEqual(t, h, SignWebhook([]byte("secret"), at.Add(time.Second), []byte(`{"event":"TASK_STARTED"}`)))
}

func TestVerifyWebhook(t *testing.T) {
	secret := []byte("s3cr3t")
	body := []byte(`{"event":"TASK_COMPLETED","data":{"id":7}}`)
	at := time.Unix(1763717400, 0)
	good := SignWebhook(secret, at, body)
	sig := strings.TrimPrefix(good, "t=1763717400,v1=")
	other := strings.TrimPrefix(SignWebhook([]byte("old secret"), at, body), "t=1763717400,v1=")

	tests := []struct {
		name      string
		secret    []byte
		header    string
		body      []byte
		now       time.Time
		tolerance time.Duration
		want      error
	}{
		{"valid", secret, good, body, at, time.Minute, nil},
		{"valid within tolerance, late", secret, good, body, at.Add(59 * time.Second), time.Minute, nil},
		{"valid within tolerance, early clock", secret, good, body, at.Add(-59 * time.Second), time.Minute, nil},
		{"spaces and an unknown key", secret, " t=1763717400 , v0=zz, v1=" + sig + " ", body, at, time.Minute, nil},
		{"rotation: one of two v1 matches", secret, "t=1763717400,v1=" + other + ",v1=" + sig, body, at, time.Minute, nil},
		{"default tolerance accepts 4 minutes", secret, good, body, at.Add(4 * time.Minute), 0, nil},
		{"default tolerance refuses 6 minutes", secret, good, body, at.Add(6 * time.Minute), 0, ErrSignatureStale},
		{"stale", secret, good, body, at.Add(2 * time.Minute), time.Minute, ErrSignatureStale},
		{"from the future", secret, good, body, at.Add(-2 * time.Minute), time.Minute, ErrSignatureStale},
		{"body changed", secret, good, []byte(`{"event":"TASK_COMPLETED","data":{"id":8}}`), at, time.Minute, ErrSignatureMismatch},
		{"wrong secret", []byte("nope"), good, body, at, time.Minute, ErrSignatureMismatch},
		{"timestamp changed", secret, "t=1763717401,v1=" + sig, body, at, time.Minute, ErrSignatureMismatch},
		{"stale and wrong: mismatch first", []byte("nope"), good, body, at.Add(time.Hour), time.Minute, ErrSignatureMismatch},
		{"empty", secret, "", body, at, time.Minute, ErrSignatureMalformed},
		{"no timestamp", secret, "v1=" + sig, body, at, time.Minute, ErrSignatureMalformed},
		{"no signature", secret, "t=1763717400", body, at, time.Minute, ErrSignatureMalformed},
		{"two timestamps", secret, "t=1,t=1763717400,v1=" + sig, body, at, time.Minute, ErrSignatureMalformed},
		{"negative timestamp", secret, "t=-5,v1=" + sig, body, at, time.Minute, ErrSignatureMalformed},
		{"timestamp not a number", secret, "t=now,v1=" + sig, body, at, time.Minute, ErrSignatureMalformed},
		{"timestamp overflows", secret, "t=99999999999999999999,v1=" + sig, body, at, time.Minute, ErrSignatureMalformed},
		{"signature not hex", secret, "t=1763717400,v1=" + strings.Repeat("g", 64), body, at, time.Minute, ErrSignatureMalformed},
		{"signature too short", secret, "t=1763717400,v1=" + sig[:62], body, at, time.Minute, ErrSignatureMalformed},
		{"item without =", secret, "t=1763717400;v1=" + sig, body, at, time.Minute, ErrSignatureMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyWebhook(tc.secret, tc.header, tc.body, tc.now, tc.tolerance)
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
