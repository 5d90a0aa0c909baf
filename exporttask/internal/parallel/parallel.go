// Package parallel runs one function on many goroutines released at
// once, for the concurrency checks of the conformance suites (storetest,
// artifacttest): start at [Run].
package parallel

import "sync"

// Run runs fn(i) for i in [0, n) on n goroutines released at once and
// returns their errors, indexed by i. fn must not fail the test itself
// (testing's FailNow must run on the test's goroutine): it returns an
// error instead.
func Run(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}
