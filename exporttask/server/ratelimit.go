package server

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// maxIdleBuckets is how many customers' buckets the limiter keeps before
// it forgets the full ones (a full bucket is the same as none).
const maxIdleBuckets = 10_000

// maxRetryAfter caps the wait the limiter reports.
const maxRetryAfter = 365 * 24 * time.Hour

// rateLimiter is a token bucket per customer: each holds up to burst
// tokens, refilled at rate tokens per second; a create takes one.
type rateLimiter struct {
	rate  float64 // tokens per second
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was computed
}

// newRateLimiter returns a limiter of rate creates per second with bursts
// of burst, or nil (no limit) when rate is 0.
func newRateLimiter(rate float64, burst int, now func() time.Time) *rateLimiter {
	if rate == 0 {
		return nil
	}
	return &rateLimiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token of customer's bucket. When there is none, ok is
// false and retryAfter is how long until there is one. A nil limiter
// allows everything.
func (l *rateLimiter) allow(customer string) (ok bool, retryAfter time.Duration) {
	if l == nil {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[customer]
	if b == nil {
		if len(l.buckets) >= maxIdleBuckets {
			l.forgetFull(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[customer] = b
	}
	b.refill(now, l.rate, l.burst)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	// Seconds until the next token, capped so that a tiny rate cannot
	// overflow a Duration.
	wait := math.Min((1-b.tokens)/l.rate, maxRetryAfter.Seconds())
	return false, time.Duration(math.Ceil(wait * float64(time.Second)))
}

// refill adds the tokens earned since b.at, up to burst.
func (b *bucket) refill(now time.Time, rate, burst float64) {
	if now.After(b.at) {
		b.tokens = math.Min(burst, b.tokens+now.Sub(b.at).Seconds()*rate)
		b.at = now
	}
}

// forgetFull drops the buckets that have refilled completely by now.
func (l *rateLimiter) forgetFull(now time.Time) {
	for c, b := range l.buckets {
		b.refill(now, l.rate, l.burst)
		if b.tokens >= l.burst {
			delete(l.buckets, c)
		}
	}
}

// retryAfterSeconds is d in whole seconds, rounded up, at least 1, as the
// Retry-After header wants.
func retryAfterSeconds(d time.Duration) int64 {
	s := int64(math.Ceil(d.Seconds()))
	return max(s, 1)
}

// allowCreate takes a token of the customer's create bucket, answering
// 429 with Retry-After and false when there is none.
func (s *Server) allowCreate(w http.ResponseWriter, r *http.Request) bool {
	ok, wait := s.limiter.allow(customerOf(r))
	if ok {
		return true
	}
	secs := retryAfterSeconds(wait)
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	s.writeProblem(w, r, newProblem(http.StatusTooManyRequests, fmt.Sprintf(
		"too many creates: this customer may create %g tasks per second, in bursts of up to %g; retry in %d seconds",
		s.limiter.rate, s.limiter.burst, secs)))
	return false
}
