package raster

import (
	"context"
	"errors"
	"fmt"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// blobBufferStart is the first size of a blob copy's tile buffer; it
// grows to the largest tile copied, at most MaxTileBytes.
const blobBufferStart = 64 << 10

// blobCacheKiB is the page cache of a blob copy of tiles tiles: what the
// export's tile index takes (under 64 bytes a tile) and 2 MiB for the
// rest, at most writeCacheKiB. The tiles pass through the cache once, in
// the table's order; a larger cache only costs its allocation: the page
// cache allocates each page apart, and freeing them at the end took
// a second for 64 MiB (modernc.org/libc unmaps its memory as it is freed).
func blobCacheKiB(tiles int64) int64 {
	return min(tiles/16+2<<10, writeCacheKiB)
}

// blobCopy copies the selected tiles of a GeoPackage source into the
// export's tile table through SQLite's incremental blob I/O, on a
// connection to SQLite's C API (modernc.org/sqlite/lib) of its own: each
// tile is read from the source's overflow pages into one C buffer, kept
// for the whole copy, and written from it into a row inserted with a
// zeroblob of its size. A tile thus never becomes an SQLite value: the
// driver's path (INSERT … SELECT) reads every tile over 4,000 bytes into
// a buffer allocated for it, and modernc.org/libc's allocator maps and
// unmaps most of these, which cost about ten times the CPU of the copy
// itself.
//
// Everything runs in one transaction of the file being built (no
// journal, an exclusive lock), which holds one read transaction of the
// attached source, as the driver's copy did. Not safe for concurrent use.
type blobCopy struct {
	tls  *libc.TLS
	db   uintptr // sqlite3*
	cell uintptr // 8 bytes of C memory for the API's out parameters
	buf  uintptr // the tile buffer
	size int32   // its size

	sel, ins uintptr // the statements: the rows of a run of ids, the insert
	from, to uintptr // the blob handles of the source and the export (0 until opened)
	table    string  // the source's tile table
	inTx     bool
}

// sqliteError is an error SQLite returned to a blobCopy. Like the
// driver's sqlite.Error it has a Code (SQLite's extended result code), so
// that isDamaged knows both.
type sqliteError struct {
	code int
	msg  string
}

func (e *sqliteError) Error() string { return e.msg }

// Code is SQLite's extended result code.
func (e *sqliteError) Code() int { return e.code }

// openBlobCopy opens the GeoPackage being built at path (its tables
// written, no connection of the driver left open on it) with the settings
// of openWrite, attaches the source read-only and begins the copy's
// transaction.
func openBlobCopy(path string, src *source, tiles int64) (c *blobCopy, err error) {
	c = &blobCopy{tls: libc.NewTLS(), table: src.table}
	defer func() {
		if err != nil {
			err = errors.Join(err, c.close())
			c = nil
		}
	}()
	if c.cell = libc.Xmalloc(c.tls, 8); c.cell == 0 {
		return c, errors.New("out of memory")
	}
	name, err := libc.CString(fileURI(path, ""))
	if err != nil {
		return c, err
	}
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, c.cell,
		sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_URI|sqlite3.SQLITE_OPEN_NOMUTEX, 0)
	libc.Xfree(c.tls, name)
	c.db = libc.AtomicLoadPUintptr(c.cell)
	if rc != sqlite3.SQLITE_OK {
		return c, c.fail(rc, "opening the GeoPackage being built")
	}
	// As attachSource: the source attached in the normal locking mode (a
	// source in WAL mode that a writer holds open cannot be read in
	// exclusive mode), the file being built in the exclusive one. The
	// source is read with plain reads (mmap_size 0), never through a
	// memory map: see attachSource.
	for _, p := range []string{
		fmt.Sprintf("PRAGMA cache_size = %d", -blobCacheKiB(tiles)),
		"PRAGMA locking_mode = NORMAL", "PRAGMA main.locking_mode = EXCLUSIVE",
		"PRAGMA trusted_schema = OFF", "PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF",
	} {
		if err := c.exec(p); err != nil {
			return c, err
		}
	}
	if err := c.attach(src.path); err != nil {
		return c, err
	}
	if err := c.exec("PRAGMA src.mmap_size = 0"); err != nil {
		return c, err
	}
	if err := c.exec("BEGIN"); err != nil {
		return c, err
	}
	c.inTx = true
	if c.sel, err = c.prepare(`SELECT rowid, tile_column, tile_row FROM src.` + quoteIdent(src.table) + ` ` + idRangeWhere); err != nil {
		return c, err
	}
	if c.ins, err = c.prepare(`INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)`); err != nil {
		return c, err
	}
	c.size = blobBufferStart
	if c.buf = libc.Xmalloc(c.tls, libc.Tsize_t(c.size)); c.buf == 0 {
		return c, errors.New("out of memory")
	}
	return c, nil
}

// copyRun copies the tiles of level zoom whose row ids are first..last
// and returns how many; it looks at ctx at every tile.
func (c *blobCopy) copyRun(ctx context.Context, zoom int, first, last int64) (n int64, err error) {
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
		if err := c.copyTile(zoom, id, col, row); err != nil {
			return n, fmt.Errorf("tile %d/%d/%d (row id %d): %w", zoom, col, row, id, err)
		}
		n++
	}
}

// copyTile copies the tile of the source's row id as tile zoom/col/row.
func (c *blobCopy) copyTile(zoom int, id, col, row int64) error {
	if err := c.seek(&c.from, "src", c.table, id, 0); err != nil {
		return fmt.Errorf("reading: %w", err)
	}
	n := sqlite3.Xsqlite3_blob_bytes(c.tls, c.from)
	if n > MaxTileBytes {
		return &badSource{fmt.Sprintf("the tile holds %d bytes, more than the %d a tile of 256×256 pixels "+
			"may (MaxTileBytes)", n, MaxTileBytes)}
	}
	if n > c.size {
		size := min(max(n, 2*c.size), MaxTileBytes)
		p := libc.Xrealloc(c.tls, c.buf, libc.Tsize_t(size))
		if p == 0 {
			return errors.New("out of memory")
		}
		c.buf, c.size = p, size
	}
	if n > 0 {
		if rc := sqlite3.Xsqlite3_blob_read(c.tls, c.from, c.buf, n, 0); rc != sqlite3.SQLITE_OK {
			return c.fail(rc, "reading")
		}
	}
	for i, v := range []int64{int64(zoom), col, row} {
		if rc := sqlite3.Xsqlite3_bind_int64(c.tls, c.ins, int32(i+1), v); rc != sqlite3.SQLITE_OK {
			return c.fail(rc, "writing")
		}
	}
	if rc := sqlite3.Xsqlite3_bind_zeroblob(c.tls, c.ins, 4, n); rc != sqlite3.SQLITE_OK {
		return c.fail(rc, "writing")
	}
	rc := sqlite3.Xsqlite3_step(c.tls, c.ins)
	sqlite3.Xsqlite3_reset(c.tls, c.ins)
	if rc != sqlite3.SQLITE_DONE {
		return c.fail(rc, "writing")
	}
	if n == 0 {
		return nil
	}
	if err := c.seek(&c.to, "main", TilesTable, sqlite3.Xsqlite3_last_insert_rowid(c.tls, c.db), 1); err != nil {
		return fmt.Errorf("writing: %w", err)
	}
	if rc := sqlite3.Xsqlite3_blob_write(c.tls, c.to, c.buf, n, 0); rc != sqlite3.SQLITE_OK {
		return c.fail(rc, "writing")
	}
	return nil
}

// seek points the blob handle *h at the tile_data of row id of schema's
// table, opening it (for writing if write is 1) the first time.
func (c *blobCopy) seek(h *uintptr, schema, table string, id int64, write int32) error {
	if *h != 0 {
		if rc := sqlite3.Xsqlite3_blob_reopen(c.tls, *h, id); rc != sqlite3.SQLITE_OK {
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
	for i, s := range []string{schema, table, "tile_data"} {
		p, err := libc.CString(s)
		if err != nil {
			return err
		}
		names[i] = p
	}
	rc := sqlite3.Xsqlite3_blob_open(c.tls, c.db, names[0], names[1], names[2], id, write, c.cell)
	if p := libc.AtomicLoadPUintptr(c.cell); rc == sqlite3.SQLITE_OK {
		*h = p
	} else {
		sqlite3.Xsqlite3_blob_close(c.tls, p) // 0, or a handle to free
		return c.fail(rc, "")
	}
	return nil
}

// commit commits the copy and closes the connection.
func (c *blobCopy) commit() error {
	c.closeHandles()
	if err := c.exec("COMMIT"); err != nil {
		return err
	}
	c.inTx = false
	return c.close()
}

// close ends the copy (rolling back what commit did not commit) and
// frees what it holds; it may be called again.
func (c *blobCopy) close() error {
	c.closeHandles()
	var err error
	if c.db != 0 {
		if c.inTx {
			c.exec("ROLLBACK")
			c.inTx = false
		}
		if rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db); rc != sqlite3.SQLITE_OK {
			err = c.fail(rc, "closing the GeoPackage being built")
		}
		c.db = 0
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

// closeHandles closes the blob handles and statements.
func (c *blobCopy) closeHandles() {
	for _, h := range []*uintptr{&c.from, &c.to} {
		if *h != 0 {
			sqlite3.Xsqlite3_blob_close(c.tls, *h)
			*h = 0
		}
	}
	for _, s := range []*uintptr{&c.sel, &c.ins} {
		if *s != 0 {
			sqlite3.Xsqlite3_finalize(c.tls, *s)
			*s = 0
		}
	}
}

// attach attaches the source path, read-only, as schema src.
func (c *blobCopy) attach(path string) error {
	stmt, err := c.prepare(`ATTACH DATABASE ? AS src`)
	if err != nil {
		return err
	}
	defer sqlite3.Xsqlite3_finalize(c.tls, stmt)
	uri, err := libc.CString(fileURI(path, "mode=ro"))
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, uri)
	if rc := sqlite3.Xsqlite3_bind_text(c.tls, stmt, 1, uri, -1, 0); rc != sqlite3.SQLITE_OK {
		return c.fail(rc, "attaching the source")
	}
	if rc := sqlite3.Xsqlite3_step(c.tls, stmt); rc != sqlite3.SQLITE_DONE {
		return c.fail(rc, "attaching the source")
	}
	return nil
}

// exec runs the statements sql.
func (c *blobCopy) exec(sql string) error {
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
func (c *blobCopy) prepare(sql string) (uintptr, error) {
	s, err := libc.CString(sql)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, s)
	if rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, s, -1, c.cell, 0); rc != sqlite3.SQLITE_OK {
		return 0, c.fail(rc, "preparing the copy")
	}
	return libc.AtomicLoadPUintptr(c.cell), nil
}

// fail is the error of result code rc, SQLite's message for it, after
// what was being done.
func (c *blobCopy) fail(rc int32, what string) error {
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

// copyBlobs copies the tiles sel selects from the GeoPackage source src
// into the tile table of the GeoPackage at path (its tables written, no
// connection open on it), in the source's row id order: the runs of ids
// of each level, at most maxBlockTiles a block, calling tally with the
// tiles of each block; an error from tally, or ctx ending, stops it.
func copyBlobs(ctx context.Context, path string, src *source, sel selection, tally func(int64) error) (err error) {
	c, err := openBlobCopy(path, src, sel.Tiles())
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, c.close()) }()
	for _, l := range sel.Levels {
		for _, r := range l.ids {
			for first := r.first; ; first += maxBlockTiles {
				last := r.last
				if last-first >= maxBlockTiles { // no overflow: first <= last
					last = first + maxBlockTiles - 1
				}
				n, err := c.copyRun(ctx, l.Zoom, first, last)
				if err != nil {
					return fmt.Errorf("copying the tiles of level %d, row ids %d..%d: %w", l.Zoom, first, last, err)
				}
				if err := tally(n); err != nil {
					return err
				}
				if last == r.last {
					break
				}
			}
		}
	}
	return c.commit()
}
