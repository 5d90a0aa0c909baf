package geotiff

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWindowSpillsPastItsBudget reads the same window in memory and, with a
// budget that holds a decoder but not the window's part of a row of tiles,
// from a scratch file: the rows are the same, the spilled window's buffers
// stay within the budget, and a budget smaller than one decoded tile is
// refused.
func TestWindowSpillsPastItsBudget(t *testing.T) {
	b := rampCOG(t, 300, 50)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	const x0, y0, w, h = 13, 5, 250, 40

	mem, err := f.WindowWith(x0, y0, w, h, WindowOptions{})
	require.NoError(t, err)
	assert.False(t, mem.Spilled())

	decoder := mem.decoderBytes()
	budget := decoder + 1000 // the window's part of a row of tiles is 16×250×4 bytes
	sp, err := f.WindowWith(x0, y0, w, h, WindowOptions{MemoryBudget: budget, ScratchDir: t.TempDir()})
	require.NoError(t, err)
	defer sp.Close()
	assert.True(t, sp.Spilled())
	assert.LessOrEqual(t, sp.Memory(), budget)

	a, b := make([]byte, 4*w), make([]byte, 4*w)
	for y := range h {
		require.NoError(t, mem.Row(y, a))
		require.NoError(t, sp.Row(y, b))
		require.Equal(t, a, b, "row %d", y)
	}
	assert.Equal(t, mem.BytesRead(), sp.BytesRead(), "each tile is read once either way")

	_, err = f.WindowWith(x0, y0, w, h, WindowOptions{MemoryBudget: decoder / 2})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "memory budget")
}
