package server

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRateLimiterTokenBucket(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	l := newRateLimiter(2, 3, func() time.Time { return now }) // 2/s, bursts of 3

	steps := []struct {
		at        time.Duration // since start
		customer  string
		ok        bool
		retryWant time.Duration
	}{
		{0, "a", true, 0},
		{0, "a", true, 0},
		{0, "a", true, 0},
		{0, "a", false, 500 * time.Millisecond}, // burst spent: one token in 0.5 s
		{0, "b", true, 0},                       // another customer has its own bucket
		{250 * time.Millisecond, "a", false, 250 * time.Millisecond},
		{500 * time.Millisecond, "a", true, 0},
		{500 * time.Millisecond, "a", false, 500 * time.Millisecond},
		{time.Hour, "a", true, 0}, // refilled, but only up to the burst
		{time.Hour, "a", true, 0},
		{time.Hour, "a", true, 0},
		{time.Hour, "a", false, 500 * time.Millisecond},
	}
	for i, s := range steps {
		now = start.Add(s.at)
		ok, retry := l.allow(s.customer)
		assert.Equal(t, s.ok, ok, "step %d", i)
		assert.Equal(t, s.retryWant, retry, "step %d", i)
	}
}

func TestRateLimiterOffAndForgetting(t *testing.T) {
	assert.Nil(t, newRateLimiter(0, 0, time.Now))
	var off *rateLimiter
	ok, _ := off.allow("a")
	assert.True(t, ok, "a nil limiter allows everything")

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newRateLimiter(1, 1, func() time.Time { return now })
	for i := range maxIdleBuckets {
		l.allow(string(rune('a'+i%26)) + time.Duration(i).String())
	}
	assert.Len(t, l.buckets, maxIdleBuckets)
	now = now.Add(time.Minute) // every bucket refilled
	l.allow("new")
	assert.Len(t, l.buckets, 1, "full buckets are forgotten when the map is full")
}

func TestRateLimiterTinyRate(t *testing.T) {
	l := newRateLimiter(1e-300, 1, time.Now)
	ok, _ := l.allow("a")
	assert.True(t, ok)
	ok, retry := l.allow("a")
	assert.False(t, ok)
	assert.Equal(t, maxRetryAfter, retry, "capped, not overflowed")
}

func TestRetryAfterSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int64
	}{{0, 1}, {time.Millisecond, 1}, {time.Second, 1}, {1001 * time.Millisecond, 2}, {90 * time.Second, 90}} {
		assert.Equal(t, tc.want, retryAfterSeconds(tc.d), "%v", tc.d)
	}
}
