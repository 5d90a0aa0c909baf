package raster

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/openapi-viewer/viewer/exporttask/export"
)

// cellColumns is how many columns of a row one index cell covers.
const cellColumns = 64

// maxIndexCells bounds a selection index: a source whose tiles fill more
// cells (a sparse pyramid of hundreds of thousands of scattered tiles)
// has none, and its estimates select the tiles from the source as
// exports do. At about 96 bytes a cell, an index takes at most 12 MiB; a
// dense pyramid of 1M tiles fills about 16,000 cells (1.5 MiB).
const maxIndexCells = 1 << 17

// exactTests is how many candidate tiles a level's estimate tests against
// the exported area one by one; above it, every s-th candidate is tested
// and stands for s tiles (systematic sampling), so that an estimate costs
// at most about this many tests per level whatever the area's size.
const exactTests = 1 << 12

// indexCell is the tiles of one row of one level in the columns
// block·64 .. block·64+63: which are present, their bytes in all, the
// largest one's, and each one's size to about 7% (see sizeCode), which
// shares the bytes out among the tiles of the cell an area selects.
type indexCell struct {
	row, block int32
	mask       uint64 // bit i: the tile of column block·64+i is present
	bytes      int64
	largest    uint32 // saturated at math.MaxUint32
	sizes      [cellColumns]uint8
}

// sizeCode is a tile size in one byte: 10·log2(size+1), rounded; each
// step is a factor of 2^0.1 (7%), and 255 is above 2^25 bytes.
func sizeCode(size int64) uint8 {
	return uint8(min(255, math.Round(10*math.Log2(float64(size)+1))))
}

// codeWeight is the size a code stands for, up to a common factor.
func codeWeight(code uint8) float64 { return math.Exp2(float64(code) / 10) }

// indexLevel is the cells of one level, by row then block.
type indexLevel struct {
	zoom  int
	cells []indexCell
}

// selectionIndex is a compact summary of a tile pyramid's tiles: per
// level, per row and 64-column block, which tiles are present and their
// bytes. An estimate reads it in place of the source: its cost grows with
// the cells the area's box meets (bounded by maxIndexCells) and at most
// exactTests tests a level, not with the source's tiles.
type selectionIndex struct {
	identity string // the source's identity it was built from, see indexIdentity
	levels   []indexLevel
}

// cells returns the number of cells of the index.
func (ix *selectionIndex) cells() (n int) {
	for _, l := range ix.levels {
		n += len(l.cells)
	}
	return n
}

// level returns the cells of level z (nil when it has no tiles).
func (ix *selectionIndex) level(z int) []indexCell {
	i := sort.Search(len(ix.levels), func(i int) bool { return ix.levels[i].zoom >= z })
	if i < len(ix.levels) && ix.levels[i].zoom == z {
		return ix.levels[i].cells
	}
	return nil
}

// estimate returns the tiles of levels minZoom..maxZoom the job selects
// and their bytes, as selectTiles would count them: exactly when a level
// has at most exactTests candidate tiles in the area's box (the bytes of a
// cell's selected tiles taken at the cell's mean tile size), by
// systematic sampling above. A selected cell holding a tile larger than
// MaxTileBytes is a *badSource, as in selectTiles.
func (ix *selectionIndex) estimate(j export.Job, minZoom, maxZoom int) (tiles, bytes int64, err error) {
	for z := minZoom; z <= maxZoom; z++ {
		t, b, err := estimateLevel(ix.level(z), j, z)
		if err != nil {
			return 0, 0, err
		}
		tiles += t
		bytes += b
	}
	return tiles, bytes, nil
}

// estimateLevel is estimate for the cells of level z.
func estimateLevel(cells []indexCell, j export.Job, z int) (tiles, bytes int64, err error) {
	r := rangeOf(j.Box(), z)
	if r.Count() == 0 || len(cells) == 0 {
		return 0, 0, nil
	}
	// The cells meeting r, and how many candidate tiles they hold in it.
	var in []int
	var candidates int64
	eachCell(cells, r, func(i int) {
		if m := cells[i].mask & columnMask(cells[i].block, r); m != 0 {
			in = append(in, i)
			candidates += int64(bits.OnesCount64(m))
		}
	})
	stride := max(1, (candidates+exactTests-1)/exactTests)
	var k int64 // candidates passed, sampled when k%stride == 0
	for _, i := range in {
		c := cells[i]
		m := c.mask & columnMask(c.block, r)
		first := int64(c.block) * cellColumns
		cellBox := tileBox(z, first+int64(bits.TrailingZeros64(m)), int64(c.row))
		cellBox.East = tileBox(z, first+cellColumns-1-int64(bits.LeadingZeros64(m)), int64(c.row)).East
		if !j.IntersectsBox(cellBox) { // no tile of the cell is selected: none is sampled
			continue
		}
		if c.largest > MaxTileBytes {
			return 0, 0, &badSource{fmt.Sprintf("a tile of level %d (row %d, columns %d..%d) holds %d bytes, more "+
				"than the %d a tile of 256×256 pixels may (MaxTileBytes)", z, c.row, first, first+cellColumns-1,
				c.largest, MaxTileBytes)}
		}
		var all float64
		for rest := c.mask; rest != 0; rest &= rest - 1 {
			all += codeWeight(c.sizes[bits.TrailingZeros64(rest)])
		}
		var hits int64
		var weight float64
		for ; m != 0; m &= m - 1 {
			if k%stride == 0 {
				i := bits.TrailingZeros64(m)
				if j.IntersectsBox(tileBox(z, first+int64(i), int64(c.row))) {
					hits++
					weight += codeWeight(c.sizes[i])
				}
			}
			k++
		}
		tiles += hits * stride
		if stride == 1 && hits == int64(bits.OnesCount64(c.mask)) {
			bytes += c.bytes // the whole cell
		} else if all > 0 {
			bytes += int64(float64(stride) * weight / all * float64(c.bytes))
		}
	}
	return tiles, bytes, nil
}

// eachCell calls fn with the index of each cell in r's rows whose block
// meets r's columns, in order.
func eachCell(cells []indexCell, r tileRange, fn func(int)) {
	b0, b1 := r.Col0/cellColumns, r.Col1/cellColumns
	i := searchCell(cells, r.Row0, b0)
	for i < len(cells) && int64(cells[i].row) <= r.Row1 {
		c := cells[i]
		if int64(c.block) > b1 { // past r in this row: on to the next
			i = searchCell(cells, int64(c.row)+1, b0)
			continue
		}
		if int64(c.block) < b0 { // before r in this row
			i = searchCell(cells, int64(c.row), b0)
			continue
		}
		fn(i)
		i++
	}
}

// searchCell returns the index of the first cell at or after (row, block).
func searchCell(cells []indexCell, row, block int64) int {
	return sort.Search(len(cells), func(i int) bool {
		c := cells[i]
		return int64(c.row) > row || int64(c.row) == row && int64(c.block) >= block
	})
}

// columnMask returns the bits of the cell of block that are columns of r.
func columnMask(block int32, r tileRange) uint64 {
	first := int64(block) * cellColumns
	lo, hi := max(r.Col0-first, 0), min(r.Col1-first, cellColumns-1)
	if lo > hi {
		return 0
	}
	return (^uint64(0) >> (cellColumns - 1 - hi)) &^ (uint64(1)<<lo - 1)
}
