package raster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// blobBufferStart is the first size of a blobReader's tile buffer; it
// grows to the largest tile read, at most MaxTileBytes.
const blobBufferStart = 64 << 10

// blobReader reads the tiles of a GeoPackage source through SQLite's
// incremental blob I/O, on a connection to SQLite's C API
// (modernc.org/sqlite/lib) of its own: each tile is read from the
// source's pages into one C buffer, kept for the whole copy. A tile thus
// never becomes an SQLite value: the driver's path (INSERT … SELECT, or a
// column read) reads every tile over 4,000 bytes into a buffer allocated
// for it, and modernc.org/libc's allocator maps and unmaps most of these,
// which cost several times the CPU of the copy itself.
//
// The source is opened read-only, read with plain reads (no memory map,
// see attachSource), under one read transaction for the whole copy (its
// -wal, if any, honoured). Not safe for concurrent use.
type blobReader struct {
	tls  *libc.TLS
	db   uintptr // sqlite3*
	cell uintptr // 8 bytes of C memory for the API's out parameters
	buf  uintptr // the tile buffer
	size int32   // its size

	sel   uintptr // the statement of the rows of a run of ids
	from  uintptr // the blob handle (0 until opened)
	table string  // the source's tile table
	inTx  bool

	// pages reads the rows from the file's pages where it can (nil
	// where not, see openPages); file is its file, handed to the
	// source's held files at close (closing a file drops the process's
	// POSIX locks on it, those of SQLite's connections among them).
	pages *pageReader
	file  *os.File
	src   *source
}

// sqliteError is an error SQLite returned to a blobReader. Like the
// driver's sqlite.Error it has a Code (SQLite's extended result code), so
// that isDamaged knows both.
type sqliteError struct {
	code int
	msg  string
}

func (e *sqliteError) Error() string { return e.msg }

// Code is SQLite's extended result code.
func (e *sqliteError) Code() int { return e.code }

// openBlobReader opens the GeoPackage source src and begins the read
// transaction.
func openBlobReader(src *source) (c *blobReader, err error) {
	c = &blobReader{tls: libc.NewTLS(), table: src.table}
	defer func() {
		if err != nil {
			err = errors.Join(err, c.close())
			c = nil
		}
	}()
	if c.cell = libc.Xmalloc(c.tls, 8); c.cell == 0 {
		return c, errors.New("out of memory")
	}
	name, err := libc.CString(fileURI(src.path, "mode=ro"))
	if err != nil {
		return c, err
	}
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, c.cell,
		sqlite3.SQLITE_OPEN_READONLY|sqlite3.SQLITE_OPEN_URI|sqlite3.SQLITE_OPEN_NOMUTEX, 0)
	libc.Xfree(c.tls, name)
	c.db = libc.AtomicLoadPUintptr(c.cell)
	if rc != sqlite3.SQLITE_OK {
		return c, c.fail(rc, "opening the source")
	}
	for _, p := range []string{"PRAGMA mmap_size = 0", "PRAGMA trusted_schema = OFF", "PRAGMA query_only = ON", "BEGIN"} {
		if err := c.exec(p); err != nil {
			return c, err
		}
	}
	c.inTx = true
	if c.sel, err = c.prepare(`SELECT rowid, tile_column, tile_row FROM ` + quoteIdent(src.table) + ` ` + idRangeWhere); err != nil {
		return c, err
	}
	c.size = blobBufferStart
	if c.buf = libc.Xmalloc(c.tls, libc.Tsize_t(c.size)); c.buf == 0 {
		return c, errors.New("out of memory")
	}
	return c, c.openPages(src)
}

// openPages sets up the reading of the tile table's pages straight from
// the file when SQLite's read transaction is all it needs (the file in
// rollback journal mode, no -wal file) and the table's columns are plain
// ones (every column stored in the record, in order).
func (c *blobReader) openPages(src *source) error {
	if _, err := os.Lstat(src.path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	// Through SQLite, which takes the read lock: the table's root page
	// and its columns.
	q, err := c.prepare(`SELECT (SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?1 COLLATE NOCASE),
		cid, lower(name), hidden FROM pragma_table_xinfo(?1)`)
	if err != nil {
		return err
	}
	defer sqlite3.Xsqlite3_finalize(c.tls, q)
	name, err := libc.CString(src.table)
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, name)
	if rc := sqlite3.Xsqlite3_bind_text(c.tls, q, 1, name, -1, 0); rc != sqlite3.SQLITE_OK {
		return c.fail(rc, "reading the tile table's columns")
	}
	var root int64
	fields := map[string]int{}
	for {
		rc := sqlite3.Xsqlite3_step(c.tls, q)
		if rc == sqlite3.SQLITE_DONE {
			break
		}
		if rc != sqlite3.SQLITE_ROW {
			return c.fail(rc, "reading the tile table's columns")
		}
		if sqlite3.Xsqlite3_column_int64(c.tls, q, 3) != 0 {
			return nil // a hidden or computed column
		}
		root = sqlite3.Xsqlite3_column_int64(c.tls, q, 0)
		fields[libc.GoString(sqlite3.Xsqlite3_column_text(c.tls, q, 2))] = int(sqlite3.Xsqlite3_column_int64(c.tls, q, 1))
	}
	var idx [4]int
	for i, col := range []string{"zoom_level", "tile_column", "tile_row", "tile_data"} {
		f, ok := fields[col]
		if !ok {
			return nil
		}
		idx[i] = f
	}
	f, err := os.Open(src.path)
	if err != nil {
		return nil // SQLite reads it
	}
	st, err := f.Stat()
	if err != nil || src.file == nil || !os.SameFile(st, src.file) || root < 2 || root > 1<<32-1 {
		f.Close()
		return nil
	}
	pr, err := newPageReader(f, st.Size(), uint32(root), idx[0], idx[1], idx[2], idx[3])
	if err != nil {
		f.Close()
		if errors.Is(err, errUnusual) {
			return nil
		}
		return err
	}
	c.pages, c.file, c.src = pr, f, src
	return nil
}

// readRun reads the tiles of level zoom whose row ids are first..last,
// in row id order, calling fn with each (data is valid until fn
// returns), and returns how many; it looks at ctx at every tile.
func (c *blobReader) readRun(ctx context.Context, zoom int, first, last int64,
	fn func(col, row int64, data []byte) error) (n int64, err error) {
	if c.pages != nil {
		return c.readPages(ctx, zoom, first, last, fn)
	}
	return c.readRows(ctx, zoom, first, last, fn)
}

// readPages is readRun from the file's pages; a row the pageReader finds
// unusual is read through SQLite.
func (c *blobReader) readPages(ctx context.Context, zoom int, first, last int64,
	fn func(col, row int64, data []byte) error) (n int64, err error) {
	cur, err := c.pages.seek(first)
	if err != nil {
		return 0, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		t, ok, err := c.pages.next(cur, last)
		switch {
		case !ok && err == nil:
			return n, nil
		case errors.Is(err, errUnusual):
			k, err := c.readRows(ctx, zoom, t.id, t.id, fn)
			n += k
			if err != nil {
				return n, err
			}
			continue
		case err != nil:
			return n, fmt.Errorf("reading the tile of row id %d: %w", t.id, err)
		case t.zoom != int64(zoom):
			continue
		}
		if err := fn(t.col, t.row, t.data); err != nil {
			return n, err
		}
		n++
	}
}

// readRows is readRun through SQLite.
func (c *blobReader) readRows(ctx context.Context, zoom int, first, last int64,
	fn func(col, row int64, data []byte) error) (n int64, err error) {
	for i, v := range []int64{first, last, int64(zoom)} {
		if rc := sqlite3.Xsqlite3_bind_int64(c.tls, c.sel, int32(i+1), v); rc != sqlite3.SQLITE_OK {
			return n, c.fail(rc, "selecting tiles")
		}
	}
	defer sqlite3.Xsqlite3_reset(c.tls, c.sel)
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		switch rc := sqlite3.Xsqlite3_step(c.tls, c.sel); rc {
		case sqlite3.SQLITE_DONE:
			return n, nil
		case sqlite3.SQLITE_ROW:
		default:
			return n, c.fail(rc, "selecting tiles")
		}
		id := sqlite3.Xsqlite3_column_int64(c.tls, c.sel, 0)
		col := sqlite3.Xsqlite3_column_int64(c.tls, c.sel, 1)
		row := sqlite3.Xsqlite3_column_int64(c.tls, c.sel, 2)
		data, err := c.read(id)
		if err != nil {
			return n, fmt.Errorf("reading tile %d/%d/%d (row id %d): %w", zoom, col, row, id, err)
		}
		if err := fn(col, row, data); err != nil {
			return n, err
		}
		n++
	}
}

// read reads the tile of row id into the buffer and returns the bytes
// read (a view of the buffer).
func (c *blobReader) read(id int64) ([]byte, error) {
	if err := c.seek(id); err != nil {
		return nil, err
	}
	n := sqlite3.Xsqlite3_blob_bytes(c.tls, c.from)
	if n > MaxTileBytes {
		return nil, &badSource{fmt.Sprintf("the tile holds %d bytes, more than the %d a tile of 256×256 pixels "+
			"may (MaxTileBytes)", n, MaxTileBytes)}
	}
	if n > c.size {
		size := min(max(n, 2*c.size), MaxTileBytes)
		p := libc.Xrealloc(c.tls, c.buf, libc.Tsize_t(size))
		if p == 0 {
			return nil, errors.New("out of memory")
		}
		c.buf, c.size = p, size
	}
	if n == 0 {
		return nil, nil
	}
	if rc := sqlite3.Xsqlite3_blob_read(c.tls, c.from, c.buf, n, 0); rc != sqlite3.SQLITE_OK {
		return nil, c.fail(rc, "")
	}
	return libc.GoBytes(c.buf, int(n)), nil
}

// seek points the blob handle at the tile_data of row id, opening it the
// first time.
func (c *blobReader) seek(id int64) error {
	if c.from != 0 {
		if rc := sqlite3.Xsqlite3_blob_reopen(c.tls, c.from, id); rc != sqlite3.SQLITE_OK {
			return c.fail(rc, "")
		}
		return nil
	}
	var names [3]uintptr
	defer func() {
		for _, p := range names {
			libc.Xfree(c.tls, p)
		}
	}()
	for i, s := range []string{"main", c.table, "tile_data"} {
		p, err := libc.CString(s)
		if err != nil {
			return err
		}
		names[i] = p
	}
	rc := sqlite3.Xsqlite3_blob_open(c.tls, c.db, names[0], names[1], names[2], id, 0, c.cell)
	p := libc.AtomicLoadPUintptr(c.cell)
	if rc != sqlite3.SQLITE_OK {
		sqlite3.Xsqlite3_blob_close(c.tls, p) // 0, or a handle to free
		return c.fail(rc, "")
	}
	c.from = p
	return nil
}

// close ends the read transaction and frees what the reader holds; it
// may be called again.
func (c *blobReader) close() error {
	if c.from != 0 {
		sqlite3.Xsqlite3_blob_close(c.tls, c.from)
		c.from = 0
	}
	if c.sel != 0 {
		sqlite3.Xsqlite3_finalize(c.tls, c.sel)
		c.sel = 0
	}
	var err error
	if c.db != 0 {
		if c.inTx {
			_ = c.exec("ROLLBACK") // a read transaction: nothing to keep
			c.inTx = false
		}
		if rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db); rc != sqlite3.SQLITE_OK {
			err = c.fail(rc, "closing the source")
		}
		c.db = 0
	}
	if c.file != nil {
		c.src.held = append(c.src.held, c.file)
		c.file, c.pages = nil, nil
	}
	for _, p := range []*uintptr{&c.buf, &c.cell} {
		if *p != 0 {
			libc.Xfree(c.tls, *p)
			*p = 0
		}
	}
	if c.tls != nil {
		c.tls.Close()
		c.tls = nil
	}
	return err
}

// exec runs the statements sql.
func (c *blobReader) exec(sql string) error {
	s, err := libc.CString(sql)
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, s)
	if rc := sqlite3.Xsqlite3_exec(c.tls, c.db, s, 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return c.fail(rc, sql)
	}
	return nil
}

// prepare compiles the statement sql.
func (c *blobReader) prepare(sql string) (uintptr, error) {
	s, err := libc.CString(sql)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, s)
	if rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, s, -1, c.cell, 0); rc != sqlite3.SQLITE_OK {
		return 0, c.fail(rc, "preparing the read")
	}
	return libc.AtomicLoadPUintptr(c.cell), nil
}

// fail is the error of result code rc, SQLite's message for it, after
// what was being done.
func (c *blobReader) fail(rc int32, what string) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	code := int(rc)
	if c.db != 0 {
		if m := libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db)); m != "" && m != msg && m != "not an error" {
			msg = m + " (" + msg + ")"
		}
		if x := sqlite3.Xsqlite3_extended_errcode(c.tls, c.db); x&0xff == rc&0xff {
			code = int(x)
		}
	}
	if what != "" {
		msg = what + ": " + msg
	}
	return &sqliteError{code: code, msg: msg}
}
