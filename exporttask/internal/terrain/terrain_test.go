package terrain

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestElevationRangeAndDeterminism(t *testing.T) {
	lo, hi := 1e9, -1e9
	for i := 0; i <= 100; i++ {
		for j := 0; j <= 100; j++ {
			h := Elevation(34+float64(i)/100, 31+float64(j)/100)
			lo, hi = min(lo, h), max(hi, h)
		}
	}
	assert.Greater(t, lo, 0.0)
	assert.Less(t, hi, 1200.0)
	assert.Greater(t, hi-lo, 500.0, "the demo area should have visible relief")
	assert.Equal(t, Elevation(34.3, 31.4), Elevation(34.3, 31.4))
}
