package raster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// pageWindow is how much of the source a pageReader reads at once: a
// tile's overflow pages, and the rows that follow it, in one read.
const pageWindow = 1 << 20

// maxTreeDepth bounds the descent of a table b-tree: a sound one of
// 2^32 pages is far shallower, so a deeper one is a loop.
const maxTreeDepth = 40

// errUnusual is a row a pageReader does not read itself (a record laid
// out otherwise than the tile table's columns as an INSERT stores them);
// its tile is read through SQLite instead.
var errUnusual = errors.New("a row read through SQLite")

// pageReader reads the rows of a GeoPackage source's tile table straight
// from the file's pages (SQLite's file format,
// https://www.sqlite.org/fileformat2.html), a window of pages per read
// call where SQLite reads a page per call, while the blobReader's read
// transaction keeps writers out. It is used only on a file in rollback
// journal mode without a -wal file (else the newest pages may be in the
// -wal) whose tile table has plain columns; a row it finds unusual it
// leaves to SQLite (errUnusual). Every number read from the file is
// checked before it is used: a page outside the file, a cell outside
// its page, a tree deeper than maxTreeDepth or a tile over MaxTileBytes
// is an error (damaged), never a panic or an unbounded read.
type pageReader struct {
	f        *os.File
	pageSize int64
	usable   int64  // pageSize less the reserved bytes
	pages    uint32 // in the file
	root     uint32
	// The record fields of the table's columns (cid order).
	zoom, col, row, data int

	win      []byte // pages winFirst… of the file
	winFirst uint32
	winPages uint32
	page     []byte // one page read alone (interior pages)
	tile     []byte // the current tile's bytes
}

// readTile is one row of the tile table as a pageReader read it.
type readTile struct {
	id, zoom, col, row int64
	data               []byte // valid until the next read
}

// leafCursor is a position in the table's leaves: the interior pages
// above it (each with the index of the child taken) and the cells of the
// current leaf.
type leafCursor struct {
	path   []cursorStep
	leaf   []byte
	cells  int
	next   int    // the next cell of leaf
	pages  uint32 // pages entered: more than the file's is a loop
	lastID int64  // the last row's id: ids only grow
	began  bool
}

type cursorStep struct {
	page  []byte
	cells int
	child int // 0..cells; cells is the right-most pointer
}

// newPageReader reads the facts of the file f it needs: the page size,
// reserved bytes and page count from the header, root and the fields as
// the caller found them through SQLite.
func newPageReader(f *os.File, size int64, root uint32, zoom, col, row, data int) (*pageReader, error) {
	var h [100]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return nil, err
	}
	ps := int64(binary.BigEndian.Uint16(h[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 || h[18] != 1 || h[19] != 1 {
		return nil, fmt.Errorf("%w: the file is not in rollback journal mode", errUnusual)
	}
	usable := ps - int64(h[20])
	if usable < 480 {
		return nil, fmt.Errorf("%w: %d usable bytes a page", errUnusual, usable)
	}
	pages := size / ps
	if pages > 1<<32-1 || root < 2 || int64(root) > pages {
		return nil, fmt.Errorf("%w: the tile table's root is page %d of %d", errUnusual, root, pages)
	}
	return &pageReader{f: f, pageSize: ps, usable: usable, pages: uint32(pages), root: root,
		zoom: zoom, col: col, row: row, data: data,
		win: make([]byte, pageWindow), page: make([]byte, ps)}, nil
}

// damaged is the error of the source's page pg found unsound.
func damaged(pg uint32, what string) error {
	if pg == 0 {
		return &badSource{"the GeoPackage's tile table is damaged: a page " + what}
	}
	return &badSource{fmt.Sprintf("the GeoPackage's tile table is damaged: page %d %s", pg, what)}
}

// sourceError is err of reading page pg of the source, without the
// file's path.
func sourceError(pg uint32, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("reading page %d of the source: %w", pg, err)
}

// at returns page pg through the window: the page read last, or a new
// window of pages from pg on.
func (r *pageReader) at(pg uint32) ([]byte, error) {
	if pg < 1 || pg > r.pages {
		return nil, damaged(pg, fmt.Sprintf("is past the file's %d pages", r.pages))
	}
	if pg < r.winFirst || pg >= r.winFirst+r.winPages {
		n := min(uint32(int64(len(r.win))/r.pageSize), r.pages-pg+1)
		got, err := r.f.ReadAt(r.win[:int64(n)*r.pageSize], int64(pg-1)*r.pageSize)
		if err != nil && !(errors.Is(err, io.EOF) && got > 0) {
			return nil, sourceError(pg, err)
		}
		r.winFirst, r.winPages = pg, uint32(int64(got)/r.pageSize)
		if r.winPages == 0 {
			return nil, damaged(pg, "is past the end of the file")
		}
	}
	off := int64(pg-r.winFirst) * r.pageSize
	return r.win[off : off+r.pageSize], nil
}

// interior reads page pg alone into a new buffer (the pages above the
// leaves, kept by a cursor).
func (r *pageReader) interior(pg uint32) ([]byte, error) {
	if pg < 1 || pg > r.pages {
		return nil, damaged(pg, fmt.Sprintf("is past the file's %d pages", r.pages))
	}
	b := make([]byte, r.pageSize)
	if _, err := r.f.ReadAt(b, int64(pg-1)*r.pageSize); err != nil {
		return nil, sourceError(pg, err)
	}
	return b, nil
}

// cellsOf checks the header of page b (number pg, of kind want) and
// returns its cell count and header size.
func (r *pageReader) cellsOf(b []byte, pg uint32, want byte) (int, int, error) {
	if b[0] != want {
		return 0, 0, damaged(pg, fmt.Sprintf("is of type %d, not %d", b[0], want))
	}
	hdr := 8
	if want == tableInterior {
		hdr = 12
	}
	cells := int(binary.BigEndian.Uint16(b[3:]))
	if int64(hdr+2*cells) > r.usable {
		return 0, 0, damaged(pg, fmt.Sprintf("claims %d cells", cells))
	}
	return cells, hdr, nil
}

// cell returns the offset of cell i of page b, checked to leave min bytes.
func (r *pageReader) cell(b []byte, pg uint32, hdr, i, min int) (int, error) {
	off := int(binary.BigEndian.Uint16(b[hdr+2*i:]))
	if off < hdr || int64(off+min) > r.usable {
		return 0, damaged(pg, fmt.Sprintf("has cell %d at %d", i, off))
	}
	return off, nil
}

// seek returns a cursor at the first row whose id is first or more.
func (r *pageReader) seek(first int64) (*leafCursor, error) {
	c := &leafCursor{}
	pg := r.root
	for depth := 0; ; depth++ {
		if depth > maxTreeDepth {
			return nil, damaged(pg, "is deeper than a table can be")
		}
		b, err := r.interior(pg)
		if err != nil {
			return nil, err
		}
		if b[0] == tableLeaf {
			return c, r.enterLeaf(c, b, pg, first)
		}
		cells, hdr, err := r.cellsOf(b, pg, tableInterior)
		if err != nil {
			return nil, err
		}
		// The first cell whose key (the largest id on its left) is first
		// or more; else the right-most child.
		lo, hi := 0, cells
		for lo < hi {
			m := (lo + hi) / 2
			off, err := r.cell(b, pg, hdr, m, 5)
			if err != nil {
				return nil, err
			}
			key, n := sqliteVarint(b[off+4 : r.usable])
			if n == 0 {
				return nil, damaged(pg, "has a bad key")
			}
			if int64(key) >= first {
				hi = m
			} else {
				lo = m + 1
			}
		}
		c.path = append(c.path, cursorStep{page: b, cells: cells, child: lo})
		if pg, err = r.child(b, pg, hdr, cells, lo); err != nil {
			return nil, err
		}
	}
}

// child is the page number of child i of interior page b.
func (r *pageReader) child(b []byte, pg uint32, hdr, cells, i int) (uint32, error) {
	if i == cells {
		return binary.BigEndian.Uint32(b[8:]), nil
	}
	off, err := r.cell(b, pg, hdr, i, 4)
	if err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(b[off:]), nil
}

// enterLeaf makes leaf b (page pg) the cursor's, at its first row of id
// first or more.
func (r *pageReader) enterLeaf(c *leafCursor, b []byte, pg uint32, first int64) error {
	cells, _, err := r.cellsOf(b, pg, tableLeaf)
	if err != nil {
		return err
	}
	c.leaf, c.cells, c.next = b, cells, 0
	for c.next < c.cells {
		id, err := r.rowID(c, pg)
		if err != nil {
			return err
		}
		if id >= first {
			break
		}
		c.next++
	}
	return nil
}

// rowID is the id of the cursor's next cell.
func (r *pageReader) rowID(c *leafCursor, pg uint32) (int64, error) {
	off, err := r.cell(c.leaf, pg, 8, c.next, 2)
	if err != nil {
		return 0, err
	}
	_, n := sqliteVarint(c.leaf[off:r.usable])
	id, m := sqliteVarint(c.leaf[off+n : r.usable])
	if n == 0 || m == 0 {
		return 0, damaged(pg, "has a bad cell")
	}
	return int64(id), nil
}

// nextLeaf moves the cursor to the next leaf; false at the table's end.
func (r *pageReader) nextLeaf(c *leafCursor) (bool, error) {
	for len(c.path) > 0 {
		s := &c.path[len(c.path)-1]
		if s.child >= s.cells {
			c.path = c.path[:len(c.path)-1]
			continue
		}
		s.child++
		// Down the left-most path of the child.
		for {
			if c.pages++; c.pages > r.pages {
				return false, damaged(0, "leads the tile table round in a loop")
			}
			top := c.path[len(c.path)-1]
			pg, err := r.child(top.page, 0, 12, top.cells, top.child)
			if err != nil {
				return false, err
			}
			if len(c.path) > maxTreeDepth {
				return false, damaged(pg, "is deeper than a table can be")
			}
			b, err := r.at(pg)
			if err != nil {
				return false, err
			}
			if b[0] == tableLeaf {
				// The window may move: keep the leaf apart.
				leaf := append(c.leaf[:0:0], b...)
				return true, r.enterLeaf(c, leaf, pg, 0)
			}
			b, err = r.interior(pg)
			if err != nil {
				return false, err
			}
			cells, _, err := r.cellsOf(b, pg, tableInterior)
			if err != nil {
				return false, err
			}
			c.path = append(c.path, cursorStep{page: b, cells: cells, child: 0})
		}
	}
	return false, nil
}

// next reads the cursor's next row, moving on to the next leaf as
// needed; ok is false past the table's end or past row id last (that
// row not read).
func (r *pageReader) next(c *leafCursor, last int64) (t readTile, ok bool, err error) {
	for c.next >= c.cells {
		if ok, err := r.nextLeaf(c); !ok || err != nil {
			return t, false, err
		}
	}
	if id, err := r.rowID(c, 0); err != nil || id > last {
		return t, false, err
	}
	t, err = r.readCell(c.leaf, c.next)
	c.next++
	if err != nil && !errors.Is(err, errUnusual) {
		return t, false, err
	}
	if c.began && t.id <= c.lastID {
		return t, false, damaged(0, fmt.Sprintf("has the row of id %d after that of id %d", t.id, c.lastID))
	}
	c.began, c.lastID = true, t.id
	return t, true, err
}

// readCell reads cell i of a leaf: its id, and its tile's fields unless
// the record is unusual (errUnusual, with the id).
func (r *pageReader) readCell(b []byte, i int) (readTile, error) {
	const pg = 0 // the leaf's number is not kept: errors name the row
	off, err := r.cell(b, pg, 8, i, 2)
	if err != nil {
		return readTile{}, err
	}
	p, n := sqliteVarint(b[off:r.usable])
	id, m := sqliteVarint(b[off+n : r.usable])
	if n == 0 || m == 0 {
		return readTile{}, damaged(pg, "has a bad cell")
	}
	t := readTile{id: int64(id)}
	payload := int64(p)
	if payload > MaxTileBytes+1024 {
		return t, errUnusual // SQLite tells the tile's size
	}
	local := payload
	if maxLocal := r.usable - 35; payload > maxLocal {
		minLocal := (r.usable-12)*32/255 - 23
		local = minLocal + (payload-minLocal)%(r.usable-4)
		if local > maxLocal {
			local = minLocal
		}
	}
	start := int64(off + n + m)
	end := start + local
	if local < payload {
		end += 4
	}
	if end > r.usable {
		return t, damaged(pg, fmt.Sprintf("has the row of id %d past its end", t.id))
	}
	rec := b[start : start+local]

	// The record's header: the serial types of its fields.
	hlen, k := sqliteVarint(rec)
	if k == 0 || int64(hlen) > local || hlen > 64 {
		return t, errUnusual
	}
	var at, size [16]int64
	var types [16]uint64
	pos, field, body := int64(k), 0, int64(hlen)
	for pos < int64(hlen) && field < len(types) {
		st, k := sqliteVarint(rec[pos:hlen])
		if k == 0 {
			return t, errUnusual
		}
		pos += int64(k)
		types[field], at[field], size[field] = st, body, serialSize(st)
		body += size[field]
		field++
	}
	if pos != int64(hlen) || max(r.zoom, r.col, r.row, r.data) >= field || body != payload {
		return t, errUnusual
	}
	ints := [3]*int64{&t.zoom, &t.col, &t.row}
	for j, f := range []int{r.zoom, r.col, r.row} {
		if at[f]+size[f] > local {
			return t, errUnusual
		}
		v, ok := intValue(types[f], rec[at[f]:at[f]+size[f]])
		if !ok {
			return t, errUnusual
		}
		*ints[j] = v
	}
	if st := types[r.data]; st < 12 {
		return t, errUnusual // NULL, a number: SQLite says what to do
	}
	dataSize := size[r.data]
	if dataSize > MaxTileBytes {
		return t, &badSource{fmt.Sprintf("the tile of row id %d holds %d bytes, more than the %d a tile of 256×256 pixels "+
			"may (MaxTileBytes)", t.id, dataSize, MaxTileBytes)}
	}
	if int64(cap(r.tile)) < dataSize {
		r.tile = make([]byte, dataSize)
	}
	t.data = r.tile[:dataSize]
	// The tile: its bytes in the leaf, then on the overflow pages.
	got := int64(copy(t.data, rec[min(at[r.data], local):]))
	if local < payload {
		over := binary.BigEndian.Uint32(b[start+local:])
		if err := r.readOverflow(over, t.data[got:], at[r.data]+got-local, payload-local, t.id); err != nil {
			return t, err
		}
	}
	return t, nil
}

// readOverflow copies into dst the bytes from skip on of the overflow
// chain from page pg, which holds rest bytes of the row id's payload.
func (r *pageReader) readOverflow(pg uint32, dst []byte, skip, rest int64, id int64) error {
	per := r.usable - 4
	for len(dst) > 0 {
		if rest <= 0 {
			return damaged(pg, fmt.Sprintf("ends the row of id %d early", id))
		}
		b, err := r.at(pg)
		if err != nil {
			return err
		}
		n := min(per, rest)
		if skip < n {
			dst = dst[copy(dst, b[4+skip:4+n]):]
			skip = 0
		} else {
			skip -= n
		}
		rest -= n
		pg = binary.BigEndian.Uint32(b)
	}
	return nil
}

// serialSize is the size of a record field of serial type st.
func serialSize(st uint64) int64 {
	switch {
	case st >= 12:
		return int64((st - 12) / 2)
	case st == 5:
		return 6
	case st == 6, st == 7:
		return 8
	case st >= 1 && st <= 4:
		return int64(st)
	}
	return 0 // NULL, 0, 1, reserved
}

// intValue is the integer of serial type st stored in b.
func intValue(st uint64, b []byte) (int64, bool) {
	switch {
	case st == 8:
		return 0, true
	case st == 9:
		return 1, true
	case st >= 1 && st <= 6:
		v := int64(int8(b[0])) // sign from the first byte
		for _, c := range b[1:] {
			v = v<<8 | int64(c)
		}
		return v, true
	}
	return 0, false
}

// sqliteVarint decodes SQLite's variable-length integer at the start of
// b and returns it and its size, 0 when b ends first.
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := range min(len(b), 9) {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}
