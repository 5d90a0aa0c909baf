package testkit

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// RunClaims fills s with tasks, perCustomer for each of customers
// customers (all of the first customer's first, then the second's, ...),
// and runs b.N claims from workers concurrent workers. Claim i runs at a
// clock of i seconds with a lease of a millisecond, so every claimed task
// is claimable again by the later claims: the queue keeps its length. It
// fails b when a claim errs or finds nothing to claim while there is
// always something.
func RunClaims(b *testing.B, s taskstore.Store, customers, perCustomer, workers int) {
	start := time.Now()
	for c := range customers {
		for i := range perCustomer {
			p := BenchParams(fmt.Sprintf("customer-%d", c), int64(c*perCustomer+i))
			p.Now = start
			_, _, err := s.Create(b.Context(), p)
			require.NoError(b, err)
		}
	}
	RunClients(b, workers, func(i int64) error {
		now := start.Add(time.Duration(i) * time.Second)
		_, ok, err := s.Claim(b.Context(), fmt.Sprintf("worker-%d", i%int64(workers)), now, time.Millisecond)
		if err != nil {
			return err
		}
		if !ok && int(i) > workers {
			return fmt.Errorf("claim %d found nothing to claim", i)
		}
		return nil
	})
}
