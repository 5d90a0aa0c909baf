package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a writer the receiver's goroutines and the test share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitForText polls b until it holds every one of want, for at most
// timeout, and returns what b holds.
func waitForText(t *testing.T, b *lockedBuffer, timeout time.Duration, want ...string) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := b.String()
		all := true
		for _, w := range want {
			all = all && strings.Contains(s, w)
		}
		if all {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, no %q in:\n%s", timeout, want, s)
		}
		<-time.After(20 * time.Millisecond) // polling interval, not a guess at the delay
	}
}
