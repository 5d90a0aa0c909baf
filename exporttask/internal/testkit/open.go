package testkit

import (
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// OpenConcurrently calls open n times at once, as replicas starting
// together would, requires every call to succeed and returns what they
// opened, closed when t ends.
func OpenConcurrently[S io.Closer](t testing.TB, n int, open func() (S, error)) []S {
	t.Helper()
	opened := make([]S, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opened[i], errs[i] = open()
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] == nil {
			s := opened[i]
			t.Cleanup(func() { s.Close() })
		}
	}
	for i := range n {
		require.NoError(t, errs[i], "open %d of %d", i+1, n)
	}
	return opened
}
