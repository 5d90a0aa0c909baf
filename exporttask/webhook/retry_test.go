package webhook

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestBackoffFullJitterBounds(t *testing.T) {
	base, maxWait := 100*time.Millisecond, 3*time.Second
	for n, ceiling := range map[int]time.Duration{
		1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond,
		5: 1600 * time.Millisecond, 6: 3 * time.Second, 40: 3 * time.Second, 63: 3 * time.Second, 1000: 3 * time.Second,
	} {
		var seenLow, seenHigh bool
		for range 500 {
			d := backoff(n, base, maxWait)
			assert.GreaterOrEqual(t, d, time.Duration(0), "attempt %d", n)
			assert.LessOrEqual(t, d, ceiling, "attempt %d", n)
			seenLow = seenLow || d < ceiling/2
			seenHigh = seenHigh || d > ceiling/2
		}
		assert.True(t, seenLow && seenHigh, "attempt %d: waits spread over [0, %s]", n, ceiling)
	}
	assert.Equal(t, time.Duration(0), backoff(3, 0, 0))
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"", 0, false},
		{"120", 2 * time.Minute, true},
		{" 0 ", 0, true},
		{"Sat, 21 Nov 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Sat, 21 Nov 2026 11:00:00 GMT", 0, true},
		{"99999999999999999999", 1<<63 - 1, true},
		{"-5", 0, false},
		{"soon", 0, false},
	}
	for _, tc := range tests {
		h := http.Header{}
		if tc.value != "" {
			h.Set("Retry-After", tc.value)
		}
		got, ok := retryAfter(h, now)
		assert.Equal(t, tc.ok, ok, "%q", tc.value)
		assert.Equal(t, tc.want, got, "%q", tc.value)
	}
}
