package raster

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"strings"

	"modernc.org/sqlite"
)

// A GeoPackage source whose tile table is the whole export and that holds
// little else is copied page by page with SQLite's online backup, then its
// metadata tables are replaced by the export's: a copy of pages, where a
// copy of rows (INSERT … SELECT, or copyPart) writes every row and the
// index anew.
const (
	// maxBackupExtraBytes is the most a source may hold besides its tile
	// table (other GeoPackage tables) to be copied whole: what
	// the copy would carry for nothing (they are dropped from it).
	maxBackupExtraBytes = 16 << 20
	// backupStepPages is how many pages one backup step copies: progress,
	// and a stop, come between steps.
	backupStepPages = 1024
)

// exportTableSQL is the export's tile table definition (tilesSchema) with
// its name left out, as normalized by normalizeSQL.
const exportTableSQL = "(idintegerprimarykeyautoincrement,zoom_levelintegernotnull,tile_columnintegernotnull," +
	"tile_rowintegernotnull,tile_datablobnotnull,unique(zoom_level,tile_column,tile_row))"

// normalizeSQL lowercases a table definition and drops its white space
// and quotes, so that the same table written by GDAL and by this package
// compares equal.
func normalizeSQL(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '"', '`', '[', ']':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// backupable reports whether the whole GeoPackage source s (every tile
// selected, see wholeSelected) can be copied page by page: its tile table
// is defined as the export's, every other table is a GeoPackage metadata
// table (gpkg_*) or sqlite_sequence, taking at most maxBackupExtraBytes,
// and it has no free pages (which may hold deleted rows). The metadata
// tables are dropped from the copy with their pages zeroed; what the copy
// carries as it is is the free space inside the tile table's own pages,
// which may hold bytes of rows deleted earlier from the source.
func (s *source) backupable(ctx context.Context) (bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema`)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var others []string // objects whose pages count as extra
	ok := true
	for rows.Next() {
		var typ, name, tbl, def string
		if err := rows.Scan(&typ, &name, &tbl, &def); err != nil {
			return false, err
		}
		switch {
		case typ == "table" && name == s.table:
			want := "createtable" + normalizeSQL(name) + exportTableSQL
			ok = ok && normalizeSQL(def) == want
		case typ == "index" && tbl == s.table:
			ok = ok && def == "" // only the UNIQUE constraint's own index
		case typ == "table" && (name == "sqlite_sequence" || strings.HasPrefix(name, "gpkg_")),
			typ == "index" && (tbl == "sqlite_sequence" || strings.HasPrefix(tbl, "gpkg_")):
			others = append(others, name)
		case typ == "trigger" || typ == "view": // no pages; dropped from the copy
		default:
			ok = false
		}
	}
	if err := rows.Err(); err != nil || !ok {
		return false, err
	}
	var free int64
	if err := s.db.QueryRowContext(ctx, `SELECT freelist_count FROM pragma_freelist_count`).Scan(&free); err != nil {
		return false, err
	}
	if free > 0 { // free pages may hold what was deleted: not the tiles
		return false, nil
	}
	var extra int64
	for _, name := range others {
		var n sql.NullInt64
		if err := s.db.QueryRowContext(ctx, `SELECT sum(pgsize) FROM dbstat('main', 1) WHERE name = ?`, name).Scan(&n); err != nil {
			return false, err
		}
		if extra += n.Int64; extra > maxBackupExtraBytes {
			return false, nil
		}
	}
	return extra <= maxBackupExtraBytes, nil
}

// backupConn is the modernc.org/sqlite connection's backup method.
type backupConn interface {
	NewBackup(dstURI string) (*sqlite.Backup, error)
}

// backupGeoPackage writes the export GeoPackage to path (a new, empty
// file) as a copy of the pages of the source s (see backupable): the file
// itself (copyPlainFile), or else page by page by SQLite's online backup
// (backupPages); then replaces its metadata tables by those of ts and
// names its tile table tiles (rewriteMetadata). The source is read in one
// read transaction (one snapshot, its -wal honoured, as a copy statement
// reads it). tally is called with the tiles copied, in proportion to the
// pages, and the copy must hold total tiles.
func backupGeoPackage(ctx context.Context, path string, s *source, ts tileSet, total int64, tally func(int64) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN`); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	var pages, pageSize int64
	if err := conn.QueryRowContext(ctx, `SELECT page_count, page_size FROM pragma_page_count, pragma_page_size`).
		Scan(&pages, &pageSize); err != nil { // takes the read lock
		return err
	}
	var done int64
	progress := func(part, whole int64) error {
		n := total*part/max(whole, 1) - done
		if n <= 0 || part == whole {
			return nil
		}
		done += n
		return tally(n)
	}
	plain, err := s.copyPlainFile(ctx, path, pages*pageSize, progress)
	if err == nil && !plain {
		err = backupPages(ctx, conn, path, pages, progress)
	}
	if err != nil {
		return fmt.Errorf("copying the source's pages: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `ROLLBACK`); err != nil {
		return err
	}
	if err := conn.Close(); err != nil {
		return err
	}
	if err := rewriteMetadata(ctx, path, s.table, ts, total); err != nil {
		return err
	}
	return tally(total - done)
}

// backupPages copies the pages of the database conn reads (pages of them)
// into the file path by SQLite's online backup, backupStepPages a step,
// calling progress with the pages copied out of pages between steps.
func backupPages(ctx context.Context, conn *sql.Conn, path string, pages int64, progress func(done, pages int64) error) error {
	q := url.Values{}
	q.Add("_pragma", "locking_mode(EXCLUSIVE)")
	q.Add("_pragma", "journal_mode(OFF)")
	q.Add("_pragma", "synchronous(OFF)")
	return conn.Raw(func(dc any) error {
		bc, ok := dc.(backupConn)
		if !ok {
			return errors.New("the SQLite driver has no backup")
		}
		b, err := bc.NewBackup(fileURI(path, q.Encode()))
		if err != nil {
			return fmt.Errorf("starting the copy into %s: %w", path, err)
		}
		var copied int64
		for more := true; more; {
			if err := ctx.Err(); err != nil {
				b.Finish()
				return err
			}
			if more, err = b.Step(backupStepPages); err != nil {
				b.Finish()
				return err
			}
			copied = min(copied+backupStepPages, pages)
			if err := progress(copied, pages); err != nil {
				b.Finish()
				return err
			}
		}
		return b.Finish()
	})
}

// plainCopyChunk is how many bytes of the source file one copy call
// copies: progress, and a stop, come between them.
const plainCopyChunk = 64 << 20

// copyPlainFile copies the first size bytes of the GeoPackage file s (its
// pages, as its header counts them) to path, when s is a database with a
// rollback journal and no -wal file: then the read transaction the caller
// holds keeps SQLite's writers out and the file is that transaction's
// snapshot. The bytes are copied by the kernel (copy_file_range), never
// mapped. It reports false, having copied nothing, for any other source
// (a -wal file to honour: see backupGeoPackage). progress is called with
// the bytes copied out of size.
func (s *source) copyPlainFile(ctx context.Context, path string, size int64, progress func(done, size int64) error) (bool, error) {
	if _, err := os.Lstat(s.path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	f, err := os.Open(s.path)
	if err != nil {
		return false, err
	}
	s.held = append(s.held, f) // closed after SQLite's connections (see source.held)
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !os.SameFile(st, s.file) {
		return false, fmt.Errorf("the source %s is no longer the file opened", s.path)
	}
	var hdr [100]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return false, fmt.Errorf("reading the header of the source %s: %w", s.path, err)
	}
	if hdr[18] != 1 || hdr[19] != 1 { // not the rollback journal's file format
		return false, nil
	}
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return false, err
	}
	defer dst.Close()
	for done := int64(0); done < size; {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		n, err := io.CopyN(dst, f, min(plainCopyChunk, size-done))
		done += n
		if errors.Is(err, io.EOF) {
			return false, fmt.Errorf("the source %s ended after %d bytes of %d", s.path, done, size)
		}
		if err != nil {
			return false, err
		}
		if err := progress(done, size); err != nil {
			return false, err
		}
	}
	return true, dst.Close()
}

// rewriteMetadata turns the copy of a source at path into the export:
// its triggers, views and tables other than the tile table (table) and
// sqlite_sequence dropped, the tile table renamed tiles, the export's
// metadata tables written for ts; it checks that the tile table holds
// total tiles.
func rewriteMetadata(ctx context.Context, path, table string, ts tileSet, total int64) error {
	db, err := openWrite(ctx, path) // the application id and version are set here
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The dropped tables' pages are zeroed, not left in the file.
	if _, err := tx.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return err
	}
	var drops []string
	rows, err := tx.QueryContext(ctx, `SELECT type, name FROM sqlite_schema
		WHERE type IN ('trigger', 'view') OR (type = 'table' AND name NOT IN (?, 'sqlite_sequence'))
		ORDER BY type = 'table'`, table)
	if err != nil {
		return err
	}
	for rows.Next() {
		var typ, name string
		if err := rows.Scan(&typ, &name); err != nil {
			rows.Close()
			return err
		}
		drops = append(drops, `DROP `+strings.ToUpper(typ)+` `+quoteIdent(name))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if table != TilesTable {
		drops = append(drops, `ALTER TABLE `+quoteIdent(table)+` RENAME TO `+TilesTable)
	}
	for _, d := range append(drops, metadataSchema) {
		if _, err := tx.ExecContext(ctx, d); err != nil {
			return fmt.Errorf("rewriting the metadata of the copy: %w", err)
		}
	}
	if err := writeMetadata(ctx, tx, ts); err != nil {
		return err
	}
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+TilesTable).Scan(&n); err != nil {
		return err
	}
	if n != total {
		return fmt.Errorf("copied %d tiles of the %d selected: %w", n, total, errCopyCount)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return db.Close()
}
