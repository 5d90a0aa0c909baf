package raster

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
)

// maxIndexKeys is the most tiles whose index a tableWriter writes itself
// (32 bytes each in memory while sorted); SQLite builds a larger one
// (REINDEX, its sorter spilling to disk).
const maxIndexKeys = 4 << 20

// B-tree page types of an index.
const (
	indexInterior = 0x02
	indexLeaf     = 0x0a
)

// indexKey is an entry of the tile table's index: the UNIQUE
// (zoom_level, tile_column, tile_row), then the row id.
type indexKey [4]int64

// writeIndex writes the index of keys (sorted here) into new pages, its
// top page at root, which SQLite created empty: a B-tree built bottom up
// as SQLite reads it, entries in the interior pages too. Two keys of the
// same tile are an error, as the UNIQUE constraint makes them.
func (t *tableWriter) writeIndex(keys []indexKey, root uint32) error {
	slices.SortFunc(keys, func(a, b indexKey) int {
		for i := range a {
			if c := cmp.Compare(a[i], b[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	for i := 1; i < len(keys); i++ {
		if [3]int64(keys[i][:3]) == [3]int64(keys[i-1][:3]) {
			return &badSource{fmt.Sprintf("the source holds tile %d/%d/%d twice (row ids %d and %d)",
				keys[i][0], keys[i][1], keys[i][2], keys[i-1][3], keys[i][3])}
		}
	}
	b := &btreeIndex{t: t}
	for _, k := range keys {
		if err := b.add(k); err != nil {
			return err
		}
	}
	return b.finish(root)
}

// btreeIndex builds an index B-tree bottom up: the leaf being filled
// and, at each level above, the interior page being filled.
type btreeIndex struct {
	t      *tableWriter
	leaf   []indexKey
	leafSz int // the leaf's bytes: header, cells and their pointers
	levels []btreeIndexLevel
}

// btreeIndexLevel is the interior page being filled at one level: cells (a
// child and the entry after it) and the child after the last cell.
type btreeIndexLevel struct {
	cells []btreeIndexCell
	size  int
	right uint32 // 0 until the child after the last cell is known
}

type btreeIndexCell struct {
	child uint32
	key   indexKey
}

// indexRecord appends the record of k.
func indexRecord(b []byte, k indexKey) []byte {
	b = append(b, 5) // the header: its size, four serial types
	var sizes [4]int
	for i, v := range k {
		st, n := intSerial(v)
		b = append(b, byte(st))
		sizes[i] = n
	}
	for i, v := range k {
		b = appendInt(b, v, sizes[i])
	}
	return b
}

// recordLen is the size of k's record.
func recordLen(k indexKey) int {
	n := 5
	for _, v := range k {
		_, s := intSerial(v)
		n += s
	}
	return n
}

func (b *btreeIndex) add(k indexKey) error {
	size := 2 + 1 + recordLen(k) // a pointer, the size (one byte: under 128), the record
	if len(b.leaf) == 0 {
		b.leafSz = 8
	}
	if b.leafSz+size <= b.t.pageSize {
		b.leaf = append(b.leaf, k)
		b.leafSz += size
		return nil
	}
	// Full: the leaf less its last entry is written, that entry goes up
	// between it and the next leaf, which begins with k: no page is
	// ever empty.
	last := b.leaf[len(b.leaf)-1]
	pg, err := b.writeLeaf(b.leaf[:len(b.leaf)-1])
	if err != nil {
		return err
	}
	b.leaf = append(b.leaf[:0], k)
	b.leafSz = 8 + size
	return b.addCell(0, btreeIndexCell{pg, last})
}

// addCell adds the cell c (a page of the level below, then an entry) to
// the page of level k; the child after it is not known yet.
func (b *btreeIndex) addCell(k int, c btreeIndexCell) error {
	if k == len(b.levels) {
		b.levels = append(b.levels, btreeIndexLevel{size: 12})
	}
	l := &b.levels[k]
	size := 2 + 4 + 1 + recordLen(c.key)
	if l.size+size <= b.t.pageSize {
		l.cells = append(l.cells, c)
		l.size += size
		return nil
	}
	// Full: written with its last cell's child as its right-most child;
	// that cell's entry goes up; the next page begins with c.
	n := len(l.cells)
	up := l.cells[n-1]
	pg, err := b.writeInterior(l.cells[:n-1], up.child)
	if err != nil {
		return err
	}
	l.cells = append(l.cells[:0], c)
	l.size = 12 + size
	return b.addCell(k+1, btreeIndexCell{pg, up.key})
}

// finish writes the last pages, the top one at root.
func (b *btreeIndex) finish(root uint32) error {
	if len(b.levels) == 0 {
		return b.writeLeafAt(b.leaf, root)
	}
	pg, err := b.writeLeaf(b.leaf)
	if err != nil {
		return err
	}
	for k := 0; k < len(b.levels); k++ {
		l := b.levels[k]
		if k == len(b.levels)-1 {
			_, err := b.writeInteriorAt(l.cells, pg, root)
			return err
		}
		if pg, err = b.writeInterior(l.cells, pg); err != nil {
			return err
		}
	}
	return nil
}

func (b *btreeIndex) writeLeaf(keys []indexKey) (uint32, error) {
	pg := b.t.next
	return pg, b.writeLeafAt(keys, 0)
}

// writeLeafAt writes a leaf of keys, as page at (a new page when 0).
func (b *btreeIndex) writeLeafAt(keys []indexKey, at uint32) error {
	p := b.t.newPage(indexLeaf)
	var rec []byte
	for _, k := range keys {
		rec = indexRecord(append(rec[:0], 0), k)
		rec[0] = byte(len(rec) - 1)
		p.top -= len(rec)
		copy(p.buf[p.top:], rec)
		binary.BigEndian.PutUint16(p.buf[p.hdr+2*p.cells:], uint16(p.top))
		p.cells++
	}
	p.seal()
	if at != 0 {
		return b.t.writeAt(p.buf, at)
	}
	return b.t.writePage(p.buf)
}

func (b *btreeIndex) writeInterior(cells []btreeIndexCell, right uint32) (uint32, error) {
	return b.writeInteriorAt(cells, right, 0)
}

// writeInteriorAt writes an interior page of cells and the right-most
// child right, as page at (a new page when 0), and returns its number.
func (b *btreeIndex) writeInteriorAt(cells []btreeIndexCell, right, at uint32) (uint32, error) {
	p := b.t.newPage(indexInterior)
	p.hdr = 12
	var rec []byte
	for _, c := range cells {
		rec = binary.BigEndian.AppendUint32(rec[:0], c.child)
		rec = indexRecord(append(rec, 0), c.key)
		rec[4] = byte(len(rec) - 5)
		p.top -= len(rec)
		copy(p.buf[p.top:], rec)
		binary.BigEndian.PutUint16(p.buf[p.hdr+2*p.cells:], uint16(p.top))
		p.cells++
	}
	binary.BigEndian.PutUint32(p.buf[8:], right)
	p.seal()
	if at != 0 {
		return at, b.t.writeAt(p.buf, at)
	}
	pg := b.t.next
	return pg, b.t.writePage(p.buf)
}
