package cog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryIsBoundedByTheBudget checks the writer's plan: a narrow image
// keeps its rows of tiles in memory, a global 1″ strip (1,296,000 pixels
// wide) spills them and fits a 256 MiB budget at under 200 bytes per pixel
// of width, and a budget below that is refused with a message saying so.
func TestMemoryIsBoundedByTheBudget(t *testing.T) {
	narrow := int16Type.image(4000, 3000, 512)
	n, err := Memory(narrow, 0, 2)
	require.NoError(t, err)
	p, err := planMemory(narrow, DefaultMemoryBudget, 2)
	require.NoError(t, err)
	assert.NotContains(t, p.spill, true, "a 4,000-pixel-wide image keeps its rows of tiles in memory")
	assert.LessOrEqual(t, n, int64(DefaultMemoryBudget))

	wide := int16Type.image(1296000, 16, 512)
	n, err = Memory(wide, 256<<20, 2)
	require.NoError(t, err)
	assert.LessOrEqual(t, n, int64(256<<20))
	p, err = planMemory(wide, 256<<20, 2)
	require.NoError(t, err)
	assert.True(t, p.spill[0], "full resolution goes to a scratch file")
	perPixel := float64(p.total(wide, wide.levels())) / 1296000
	t.Logf("%d bytes in all, %.0f bytes per pixel of width with every level spilled", n, perPixel)

	_, err = Memory(wide, 64<<20, 2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "over the budget of 64 MB")
}
