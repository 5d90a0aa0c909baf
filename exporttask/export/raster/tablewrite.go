package raster

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// tableWriter writes the rows of the export's tile table straight into
// the pages of the GeoPackage file (SQLite's file format,
// https://www.sqlite.org/fileformat2.html), after SQLite has created the
// file with the table empty and closed it: the table's b-tree is built
// bottom up in new pages appended to the file, one sequential write of
// each page, and its root, at the page SQLite gave the table, written
// last. Rows get the row ids 1, 2, … in the order they are added. The
// table's index is written from its keys (writeIndex) or, for more than
// maxIndexKeys tiles, rebuilt by SQLite afterwards (REINDEX).
//
// Each row is the record (NULL for the INTEGER PRIMARY KEY, zoom_level,
// tile_column, tile_row, tile_data as a BLOB); a tile too large for its
// leaf page goes on to overflow pages, as SQLite would store it. Pages
// have no reserved bytes (openWrite's files).
type tableWriter struct {
	f        *os.File
	w        *bufio.Writer // at the end of the file: page next
	pageSize int
	root     uint32 // the table's root page, written by finish
	next     uint32 // the next page to write
	rows     int64  // rows added

	leaf   page
	levels []interiorLevel // the interior pages being filled, level 0 above the leaves
	over   []byte          // an overflow page
	header []byte          // a record's header and integers
}

// page is a b-tree page being filled: cells from the end down, their
// pointers after the header.
type page struct {
	buf    []byte
	hdr    int // the header's size: 8 for a leaf, 12 for an interior page
	cells  int
	top    int   // where the cell content begins
	maxKey int64 // the largest row id under it
}

// interiorLevel is the interior page being filled at one level: its
// children, the last of which is its right-most pointer.
type interiorLevel struct {
	children []child
	flushed  bool // a page of this level was written: it is not the root
}

// child is a page of the level below and the largest row id under it.
type child struct {
	pgno uint32
	key  int64
}

// B-tree page types.
const (
	tableInterior = 0x05
	tableLeaf     = 0x0d
)

// newTableWriter opens the SQLite file at path, of pageCount pages of
// pageSize bytes, whose table rooted at page root is empty, to append
// the table's rows.
func newTableWriter(path string, pageSize int, pageCount, root uint32) (*tableWriter, error) {
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 || root < 2 || root > pageCount {
		return nil, fmt.Errorf("the GeoPackage being built has pages of %d bytes, %d pages and its tile table at page %d", pageSize, pageCount, root)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fileError("opening", err)
	}
	if _, err := f.Seek(int64(pageCount)*int64(pageSize), io.SeekStart); err != nil {
		f.Close()
		return nil, fileError("seeking in", err)
	}
	t := &tableWriter{f: f, w: bufio.NewWriterSize(f, 1<<20), pageSize: pageSize, root: root, next: pageCount + 1,
		over: make([]byte, pageSize), header: make([]byte, 0, 64)}
	t.leaf = t.newPage(tableLeaf)
	return t, nil
}

func (t *tableWriter) newPage(kind byte) page {
	p := page{buf: make([]byte, t.pageSize), hdr: 8, top: t.pageSize}
	if kind == tableInterior {
		p.hdr = 12
	}
	p.buf[0] = kind
	return p
}

// add appends the row zoom, col, row, data and returns its row id.
func (t *tableWriter) add(zoom int, col, row int64, data []byte) (int64, error) {
	if len(data) > MaxTileBytes {
		return 0, fmt.Errorf("a tile of %d bytes, more than MaxTileBytes", len(data))
	}
	id := t.rows + 1
	// The record: its header (its size, one byte as it is under 128; the
	// serial types), the three integers, the tile.
	h := append(t.header[:0], 0, 0) // size, NULL
	var ints [3]int
	for i, v := range []int64{int64(zoom), col, row} {
		st, n := intSerial(v)
		h = append(h, byte(st))
		ints[i] = n
	}
	h = appendVarint(h, uint64(12+2*len(data)))
	h[0] = byte(len(h))
	for i, v := range []int64{int64(zoom), col, row} {
		h = appendInt(h, v, ints[i])
	}
	t.header = h
	payload := int64(len(h) + len(data))

	u := int64(t.pageSize)
	local := payload
	if maxLocal := u - 35; payload > maxLocal {
		minLocal := (u-12)*32/255 - 23
		local = minLocal + (payload-minLocal)%(u-4)
		if local > maxLocal {
			local = minLocal
		}
	}
	var cell [18]byte
	pre := appendVarint(cell[:0], uint64(payload))
	pre = appendVarint(pre, uint64(id))
	size := len(pre) + int(local)
	if local < payload {
		size += 4
	}
	if size < 4 {
		size = 4
	}
	if t.leaf.cells > 0 && !t.leaf.fits(size) {
		if err := t.flushLeaf(); err != nil {
			return 0, err
		}
	}
	// The cell: its prefix, the local bytes, the first overflow page.
	p := &t.leaf
	p.top -= size
	c := p.buf[p.top : p.top+size]
	n := copy(c, pre)
	n += copyPayload(c[n:n+int(local)], h, data, 0)
	if local < payload {
		first := t.next
		binary.BigEndian.PutUint32(c[n:], first)
		if err := t.writeOverflow(h, data, local, payload); err != nil {
			return 0, err
		}
	}
	binary.BigEndian.PutUint16(p.buf[p.hdr+2*p.cells:], uint16(p.top))
	p.cells++
	p.maxKey = id
	t.rows = id
	return id, nil
}

// writeOverflow writes the payload (h then data) from byte local on, in
// a chain of overflow pages from page t.next.
func (t *tableWriter) writeOverflow(h, data []byte, local, payload int64) error {
	per := int64(t.pageSize - 4)
	for off := local; off < payload; off += per {
		clear(t.over)
		if off+per < payload {
			binary.BigEndian.PutUint32(t.over, t.next+1)
		}
		copyPayload(t.over[4:4+min(per, payload-off)], h, data, int(off))
		if err := t.writePage(t.over); err != nil {
			return err
		}
	}
	return nil
}

// copyPayload copies the payload h then data, from byte off, into dst.
func copyPayload(dst, h, data []byte, off int) int {
	n := 0
	if off < len(h) {
		n = copy(dst, h[off:])
		off = len(h)
	}
	return n + copy(dst[n:], data[off-len(h):])
}

// fits reports whether a cell of size bytes fits in p beside its cells.
func (p *page) fits(size int) bool {
	return p.hdr+2*(p.cells+1) <= p.top-size
}

// writePage appends b as page t.next.
func (t *tableWriter) writePage(b []byte) error {
	if t.next == 1<<32-1 {
		return errors.New("the GeoPackage has too many pages")
	}
	if _, err := t.w.Write(b); err != nil {
		return fileError("writing", err)
	}
	t.next++
	return nil
}

// seal writes p's cell count and content start.
func (p *page) seal() {
	binary.BigEndian.PutUint16(p.buf[3:], uint16(p.cells))
	top := p.top
	if top == 65536 {
		top = 0 // as the format writes it
	}
	binary.BigEndian.PutUint16(p.buf[5:], uint16(top))
}

// flushLeaf writes the leaf page and starts a new one.
func (t *tableWriter) flushLeaf() error {
	t.leaf.seal()
	pg := t.next
	if err := t.writePage(t.leaf.buf); err != nil {
		return err
	}
	key := t.leaf.maxKey
	t.leaf = t.newPage(tableLeaf)
	return t.addChild(0, child{pg, key})
}

// addChild adds a page of the level below to the interior page of level
// k. A full page is written with all its children but the last, which
// begins the next page with c: every page written has two children or
// more.
func (t *tableWriter) addChild(k int, c child) error {
	if k == len(t.levels) {
		t.levels = append(t.levels, interiorLevel{})
	}
	l := &t.levels[k]
	l.children = append(l.children, c)
	if t.interiorFits(l.children) {
		return nil
	}
	n := len(l.children)
	keep := []child{l.children[n-2], l.children[n-1]}
	pg, key, err := t.writeInterior(l.children[:n-2], 0)
	if err != nil {
		return err
	}
	l.children = append(l.children[:0], keep...)
	l.flushed = true
	return t.addChild(k+1, child{pg, key})
}

// interiorFits reports whether children fit in one interior page: all
// but the last as cells (a page number and a row id), the last the
// right-most pointer.
func (t *tableWriter) interiorFits(children []child) bool {
	size := 12
	for _, c := range children[:len(children)-1] {
		size += 2 + 4 + varintLen(uint64(c.key))
	}
	return size <= t.pageSize
}

// writeInterior writes the interior page of children, as page at (a new
// page when at is 0), and returns its number and largest row id.
func (t *tableWriter) writeInterior(children []child, at uint32) (uint32, int64, error) {
	p := t.newPage(tableInterior)
	last := children[len(children)-1]
	for _, c := range children[:len(children)-1] {
		var cell [13]byte
		binary.BigEndian.PutUint32(cell[:], c.pgno)
		b := appendVarint(cell[:4], uint64(c.key))
		p.top -= len(b)
		copy(p.buf[p.top:], b)
		binary.BigEndian.PutUint16(p.buf[p.hdr+2*p.cells:], uint16(p.top))
		p.cells++
	}
	binary.BigEndian.PutUint32(p.buf[8:], last.pgno)
	p.seal()
	if at != 0 {
		return at, last.key, t.writeAt(p.buf, at)
	}
	pg := t.next
	return pg, last.key, t.writePage(p.buf)
}

// writeAt writes b as page pg, in place.
func (t *tableWriter) writeAt(b []byte, pg uint32) error {
	if _, err := t.f.WriteAt(b, int64(pg-1)*int64(t.pageSize)); err != nil {
		return fileError("writing", err)
	}
	return nil
}

// finish writes the last pages and the root; with keys, the table's
// index too (writeIndex, its root at indexRoot); sets the page count in
// the file's header and closes the file. The writer is done with either
// way.
func (t *tableWriter) finish(keys []indexKey, indexRoot uint32) (err error) {
	defer func() {
		if cerr := t.f.Close(); err == nil {
			err = cerr
		}
	}()
	if err := t.finishTree(); err != nil {
		return err
	}
	if keys != nil {
		if indexRoot < 2 || indexRoot >= t.next {
			return fmt.Errorf("the tile table's index is at page %d", indexRoot)
		}
		if err := t.writeIndex(keys, indexRoot); err != nil {
			return err
		}
	}
	if err := t.w.Flush(); err != nil {
		return fileError("writing", err)
	}
	// The header: the file change counter (24), the size in pages (28)
	// and the version-valid-for number (92), which equals the counter
	// when the size is to be trusted.
	var h [96]byte
	if _, err := t.f.ReadAt(h[:], 0); err != nil {
		return fileError("reading", err)
	}
	change := binary.BigEndian.Uint32(h[24:]) + 1
	binary.BigEndian.PutUint32(h[24:], change)
	binary.BigEndian.PutUint32(h[28:], t.next-1)
	binary.BigEndian.PutUint32(h[92:], change)
	if _, err := t.f.WriteAt(h[24:32], 24); err != nil {
		return fileError("writing", err)
	}
	if _, err := t.f.WriteAt(h[92:96], 92); err != nil {
		return fileError("writing", err)
	}
	return nil
}

// fileError is err of doing what to the GeoPackage being built, without
// the file's path (a server's path, for no client's eyes); errors.Is
// still finds the system's error (a full disk) in it.
func fileError(what string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s the GeoPackage being built: %w", what, err)
}

// finishTree writes the last leaf and interior pages; the top page goes
// to the root.
func (t *tableWriter) finishTree() error {
	if len(t.levels) == 0 { // one leaf: the root
		t.leaf.seal()
		return t.writeAt(t.leaf.buf, t.root)
	}
	if err := t.flushLeaf(); err != nil {
		return err
	}
	for k := 0; k < len(t.levels); k++ {
		l := &t.levels[k]
		if k == len(t.levels)-1 && !l.flushed { // the top
			_, _, err := t.writeInterior(l.children, t.root)
			return err
		}
		pg, key, err := t.writeInterior(l.children, 0)
		if err != nil {
			return err
		}
		if err := t.addChild(k+1, child{pg, key}); err != nil {
			return err
		}
	}
	return errors.New("no root") // not reached: the last level is never flushed at the top
}

// close closes the file without finishing it.
func (t *tableWriter) close() { t.f.Close() }

// intSerial is the serial type of v in a record and its size in bytes.
func intSerial(v int64) (int, int) {
	switch {
	case v >= -1<<7 && v < 1<<7:
		return 1, 1
	case v >= -1<<15 && v < 1<<15:
		return 2, 2
	case v >= -1<<23 && v < 1<<23:
		return 3, 3
	case v >= -1<<31 && v < 1<<31:
		return 4, 4
	case v >= -1<<47 && v < 1<<47:
		return 5, 6
	}
	return 6, 8
}

// appendInt appends v big-endian in n bytes.
func appendInt(b []byte, v int64, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// appendVarint appends v as SQLite's variable-length integer: 7 bits a
// byte, high bits first, the ninth byte 8 bits.
func appendVarint(b []byte, v uint64) []byte {
	if v>>56 != 0 {
		var buf [9]byte
		buf[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			buf[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return append(b, buf[:]...)
	}
	var buf [8]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte(v & 0x7f)
		if i < len(buf)-1 {
			buf[i] |= 0x80
		}
		v >>= 7
		if v == 0 {
			break
		}
	}
	return append(b, buf[i:]...)
}

// varintLen is the size of v as a varint.
func varintLen(v uint64) int {
	var b [9]byte
	return len(appendVarint(b[:0], v))
}
