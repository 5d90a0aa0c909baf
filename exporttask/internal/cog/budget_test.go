package cog

import (
	"bytes"
	"context"
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

// TestSpilledAndParallelWritesAreTheSameFile writes one image with its
// rows of tiles in memory on one worker, in memory on four, and spilled
// to scratch files: the three files are byte for byte the same.
func TestSpilledAndParallelWritesAreTheSameFile(t *testing.T) {
	img := int16Type.image(1000, 700, 128)
	write := func(o Options) []byte {
		var buf bytes.Buffer
		o.ScratchDir = t.TempDir()
		_, err := WriteWith(context.Background(), &buf, img, smoothInt16(img.Width), o)
		require.NoError(t, err)
		return buf.Bytes()
	}
	one := write(Options{Workers: 1})
	four := write(Options{Workers: 4})
	// A byte less than all in memory: full resolution spills.
	inMemory := memoryPlan{spill: make([]bool, len(img.levels())), workers: 2}.total(img, img.levels())
	p, err := planMemory(img, inMemory-1, 2)
	require.NoError(t, err)
	require.True(t, p.spill[0], "full resolution spills")
	spilled := write(Options{Workers: 2, MemoryBudget: inMemory - 1})
	assert.True(t, bytes.Equal(one, four), "four workers write the file one writes")
	assert.True(t, bytes.Equal(one, spilled), "a spilled write is the same file")
}
