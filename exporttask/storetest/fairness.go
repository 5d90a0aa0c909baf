package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/parallel"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testClaimTurns: one customer's burst does not starve another. After 100
// tasks of acme and then one of globex, globex's is among the first two
// claims; within a customer the oldest task goes first.
func testClaimTurns(t *testing.T, s taskstore.Store) {
	var burst []int64
	for i := range 100 {
		burst = append(burst, create(t, s, params(t, acme, request(fmt.Sprintf("rec-%d", i)), at(0))).ID)
	}
	late := create(t, s, params(t, globex, request("rec-late"), at(time.Second)))

	first := claim(t, s, "w1", at(2*time.Second)).ID
	second := claim(t, s, "w2", at(2*time.Second)).ID
	assert.Contains(t, []int64{first, second}, late.ID, "globex's task is among the first two claims")
	assert.ElementsMatch(t, []int64{burst[0], late.ID}, []int64{first, second}, "acme's oldest task is the other one")
	for i := range 3 {
		assert.Equal(t, burst[i+1], claim(t, s, "w3", at(2*time.Second)).ID, "globex has nothing left: acme's, oldest first")
	}
}

// testClaimTurnsRotate: the turns keep rotating among three customers,
// whatever the order and number of their tasks, and a customer whose
// queue ran empty drops out of the round without holding it up.
func testClaimTurnsRotate(t *testing.T, s taskstore.Store) {
	const initech = "initech"
	ids := map[string][]int64{}
	add := func(customer string, n int) {
		for range n {
			r := request(fmt.Sprintf("rec-%s-%d", customer, len(ids[customer])))
			ids[customer] = append(ids[customer], create(t, s, params(t, customer, r, at(0))).ID)
		}
	}
	add(acme, 6)
	add(globex, 2)
	add(initech, 4)

	owner := map[int64]string{}
	for c, list := range ids {
		for _, id := range list {
			owner[id] = c
		}
	}
	var got []string
	next := map[string]int{}
	for i := range 12 {
		task := claim(t, s, fmt.Sprintf("w%d", i), at(time.Second))
		c := owner[task.ID]
		require.NotEmpty(t, c, "claim %d returned task %d, not one of the suite's", i, task.ID)
		assert.Equal(t, ids[c][next[c]], task.ID, "claim %d: %s's oldest task first", i, c)
		next[c]++
		got = append(got, c)
	}
	// Rounds of the three while each has tasks (in a fixed order among
	// ties), then of the two left, then acme alone.
	assert.Equal(t, []string{
		acme, globex, initech,
		acme, globex, initech,
		acme, initech,
		acme, initech,
		acme, acme,
	}, got)
	noClaim(t, s, at(2*time.Second))
}

// RunMaxRunning checks a store's limit on running tasks per customer.
// open returns one or more stores (as replicas would hold) over one fresh,
// empty database, each opened with a limit of maxRunning IN_PROGRESS tasks
// per customer; RunMaxRunning closes them when each subtest ends.
func RunMaxRunning(t *testing.T, open func(t *testing.T, maxRunning int) []taskstore.Store) {
	tests := []struct {
		name  string
		limit int
		fn    func(t *testing.T, ss []taskstore.Store)
	}{
		{"OneRunning", 1, testOneRunning},
		{"ConcurrentClaims", 2, testMaxRunningConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ss := open(t, tc.limit)
			require.NotEmpty(t, ss, "open returned no store")
			for _, s := range ss {
				t.Cleanup(func() { assert.NoError(t, s.Close(), "closing a store") })
			}
			tc.fn(t, ss)
		})
	}
}

// testOneRunning, with a limit of 1: a customer with a running task gets
// no second claim while another customer's task is claimable, nor when it
// is alone; a finished task or an ended lease frees the place.
func testOneRunning(t *testing.T, ss []taskstore.Store) {
	s := ss[0]
	a1 := create(t, s, params(t, acme, request("rec-1"), at(0)))
	a2 := create(t, s, params(t, acme, request("rec-2"), at(0)))
	a3 := create(t, s, params(t, acme, request("rec-3"), at(0)))
	g1 := create(t, s, params(t, globex, request("rec-4"), at(0)))

	assert.Equal(t, a1.ID, claim(t, s, "w1", at(0)).ID) // leased until 1m
	assert.Equal(t, g1.ID, claim(t, s, "w2", at(0)).ID, "acme runs one: globex's, not acme's second")
	noClaim(t, s, at(time.Second)) // acme at its limit, globex has nothing waiting

	finish(t, s, a1.ID, "w1", at(2*time.Second))
	finish(t, s, g1.ID, "w2", at(2*time.Second))
	assert.Equal(t, a2.ID, claim(t, s, "w3", at(2*time.Second)).ID, "a finished task frees the place") // until 1m2s
	noClaim(t, s, at(3*time.Second))

	assert.Equal(t, a2.ID, claim(t, s, "w4", at(time.Minute+3*time.Second)).ID,
		"an ended lease frees the place: its task is taken over first")
	noClaim(t, s, at(time.Minute+3*time.Second))
	finish(t, s, a2.ID, "w4", at(time.Minute+4*time.Second))
	assert.Equal(t, a3.ID, claim(t, s, "w5", at(time.Minute+4*time.Second)).ID)
}

// testMaxRunningConcurrent, with a limit of 2: workers claiming at once
// through every store never lease more than 2 tasks of a customer.
func testMaxRunningConcurrent(t *testing.T, ss []taskstore.Store) {
	customers := []string{acme, globex, "initech"}
	owner := map[int64]string{}
	for i := range 10 {
		for _, c := range customers {
			owner[create(t, ss[0], params(t, c, request(fmt.Sprintf("rec-%d", i)), at(0))).ID] = c
		}
	}
	const workers = 8
	claimed := make([][]int64, workers)
	errs := parallel.Run(workers, func(w int) error {
		s := ss[w%len(ss)]
		for range 10 { // bounded: a broken store must not loop forever
			task, ok, err := s.Claim(ctx(t), fmt.Sprintf("worker-%d", w), at(time.Second), time.Hour)
			if err != nil || !ok {
				return err
			}
			claimed[w] = append(claimed[w], task.ID)
		}
		return nil
	})
	running := map[string]int{}
	for w, ids := range claimed {
		require.NoError(t, errs[w])
		for _, id := range ids {
			running[owner[id]]++
		}
	}
	// A claim may find nothing while another holds the turn it wanted:
	// claim on until none is left.
	for {
		task, ok, err := ss[0].Claim(ctx(t), "sweeper", at(time.Second), time.Hour)
		require.NoError(t, err)
		if !ok {
			break
		}
		running[owner[task.ID]]++
		require.LessOrEqual(t, running[owner[task.ID]], 2, "claimed past the limit")
	}
	assert.Equal(t, map[string]int{acme: 2, globex: 2, "initech": 2}, running, "two running per customer, no more")
}
