package geom

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBoxPairsFindsEachOverlapOnce compares boxPairs with a comparison of
// every pair, on boxes of mixed sizes (points, segments, long and small
// boxes, repeated boxes), few and many.
func TestBoxPairsFindsEachOverlapOnce(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 9))
		n := 1 + rng.IntN(300)
		if seed%4 == 0 {
			n = 1 + rng.IntN(32)
		}
		boxes := make([][4]float64, n)
		for i := range boxes {
			x, y := float64(rng.IntN(200))/8, float64(rng.IntN(200))/8
			w, h := float64(rng.IntN(4))/8, float64(rng.IntN(4))/8
			if rng.IntN(20) == 0 {
				w, h = 10*rng.Float64(), 10*rng.Float64()
			}
			if i > 0 && rng.IntN(20) == 0 {
				boxes[i] = boxes[i-1]
				continue
			}
			boxes[i] = [4]float64{x, y, x + w, y + h}
		}
		want := map[[2]int]int{}
		for a := range boxes {
			for b := a + 1; b < n; b++ {
				p, q := boxes[a], boxes[b]
				if p[2] >= q[0] && q[2] >= p[0] && p[3] >= q[1] && q[3] >= p[1] {
					want[[2]int{a, b}] = 1
				}
			}
		}
		got := map[[2]int]int{}
		budget := 1 << 30
		ok := boxPairs(n, func(i int) (float64, float64, float64, float64) {
			return boxes[i][0], boxes[i][1], boxes[i][2], boxes[i][3]
		}, &budget, func(a, b int) bool {
			got[[2]int{a, b}]++
			return true
		})
		require.True(t, ok)
		require.Equal(t, want, got, "seed %d: every overlapping pair once, a < b", seed)
	}
}

func TestBoxPairsBudget(t *testing.T) {
	boxes := make([][4]float64, 1000) // all the same box: every pair overlaps
	budget := 1000
	calls := 0
	ok := boxPairs(len(boxes), func(i int) (float64, float64, float64, float64) { return 0, 0, 1, 1 },
		&budget, func(a, b int) bool { calls++; return true })
	assert.False(t, ok, "499,500 pairs exceed a budget of 1,000")
	assert.Less(t, budget, 0)
	assert.Zero(t, calls, "refused before comparing")
}
