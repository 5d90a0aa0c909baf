package webhook

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// backoff returns how long to wait before the attempt after attempt number
// n (1 for the first): "full jitter", a uniformly random duration between
// zero and min(max, base·2^(n-1)). Randomising the whole interval spreads
// the retries of many deliveries that failed together.
func backoff(n int, base, maxWait time.Duration) time.Duration {
	ceiling := maxWait
	if n >= 1 && n <= 62 {
		if d := base << (n - 1); d > 0 && d>>(n-1) == base && d < maxWait {
			ceiling = d
		}
	}
	if ceiling <= 0 {
		return 0
	}
	return rand.N(ceiling + 1)
}

// retryAfter reads a Retry-After header (RFC 9110, section 10.2.3): delay
// seconds or an HTTP date. ok is false when the header is absent or
// unreadable. A date in the past gives zero.
func retryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > int64((1<<63-1)/time.Second) {
			return 1<<63 - 1, true // absurdly far: the caller bounds it
		}
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(at.Sub(now), 0), true
}
