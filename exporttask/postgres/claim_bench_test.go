package postgres_test

import (
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// BenchmarkClaim measures claims by 8 concurrent workers from a
// database whose queue holds 2,000 claimable tasks of 20 customers.
func BenchmarkClaim(b *testing.B) {
	testkit.RunClaims(b, benchDB(b), 20, 100, 8)
}

// BenchmarkClaimOneCustomer measures claims by 8 concurrent workers from
// a queue of 2,000 claimable tasks of one customer.
func BenchmarkClaimOneCustomer(b *testing.B) {
	testkit.RunClaims(b, benchDB(b), 1, 2000, 8)
}

// BenchmarkClaimOneWorker measures the cost of one claim alone: one worker
// claiming from a queue of 2,000 claimable tasks of 20 customers.
func BenchmarkClaimOneWorker(b *testing.B) {
	testkit.RunClaims(b, benchDB(b), 20, 100, 1)
}
