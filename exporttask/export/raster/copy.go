package raster

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/writeback"
)

// progressSteps is about how many progress reports a copy makes.
const progressSteps = 100

// maxBlockTiles is the most tiles one copy statement copies: progress,
// and a stop, come between statements.
const maxBlockTiles = 4096

// errCopyCount is a copy that found other tiles than the selection did.
var errCopyCount = errors.New("the tiles copied are not those selected")

// buildGeoPackage writes the export GeoPackage to path (a new, empty
// file): the GeoPackage tables for ts, then the selected tiles copied from
// src as stored (no decoding), in one transaction; or, for every tile of a
// GeoPackage source that holds little else (see backupable), a copy of the
// source's pages with the export's metadata (backupGeoPackage). Progress goes to out as
// tiles written out of sel.Tiles(); an error from it, or ctx ending, stops
// the copy.
//
// The disk writes the file while it is built (package writeback), so that
// the store's sync of it at commit finds little left to write.
func buildGeoPackage(ctx context.Context, path string, src *source, ts tileSet, sel selection, out export.Output) error {
	total := sel.Tiles()
	step := max(total/progressSteps, 1)
	var done, reported int64
	tally := func(n int64) error {
		done += n
		if done-reported < step {
			return nil
		}
		reported = done
		return out.Progress(done, total)
	}
	whole := false
	if src.db != nil {
		var err error
		if whole, err = src.wholeSelected(ctx, sel); err != nil {
			return err
		}
		if whole {
			pages, err := src.backupable(ctx)
			if err != nil {
				return err
			}
			if pages {
				defer writeback.Follow(path)()
				return backupGeoPackage(ctx, path, src, ts, total, tally)
			}
		}
	}
	db, err := openWrite(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	defer writeback.Follow(path)()
	if err := createGeoPackage(ctx, db, ts); err != nil {
		return err
	}
	if src.db != nil && src.imagery == nil && !whole {
		// Part of a GeoPackage: the tiles read by blob I/O and written
		// into the file's pages (copyPart).
		return copyPart(ctx, db, path, src, sel, tally)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var c tileCopier
	if src.imagery != nil {
		c, err = renderCopier(ctx, conn, src)
	} else if src.db != nil {
		c, err = attachSource(ctx, conn, src)
	} else {
		c, err = fileCopier(ctx, conn, src)
	}
	if err != nil {
		return err
	}
	defer c.close()

	if whole {
		n, err := c.copyAll(ctx)
		if err != nil {
			return fmt.Errorf("copying every tile: %w", err)
		}
		if err := tally(n); err != nil {
			return err
		}
	} else {
		for _, l := range sel.Levels {
			if err := c.copy(ctx, l, tally); err != nil {
				return fmt.Errorf("copying the tiles of level %d: %w", l.Zoom, err)
			}
		}
	}
	if done != total {
		return fmt.Errorf("copied %d tiles of the %d selected: %w", done, total, errCopyCount)
	}
	if err := c.commit(ctx); err != nil {
		return err
	}
	if err := conn.Close(); err != nil {
		return err
	}
	return db.Close()
}

// reindexCacheKiB is the page cache of copyPart's REINDEX.
const reindexCacheKiB = 2 << 10

// copyPart copies the tiles sel selects from the GeoPackage source src
// into the GeoPackage at path, whose tables SQLite has written through db
// (which copyPart closes), in the source's row id order: the runs of ids
// of each level, at most maxBlockTiles a block, calling tally with the
// tiles of each block; an error from tally, or ctx ending, stops it. The
// tiles are read with blobReader and written into new pages of the file
// with tableWriter; SQLite then builds the table's index (which also
// checks the tiles are unique) and notes its last row id.
func copyPart(ctx context.Context, db *sql.DB, path string, src *source, sel selection, tally func(int64) error) error {
	var pageSize int
	var pageCount, root, indexRoot uint32
	err := db.QueryRowContext(ctx, `SELECT (SELECT page_size FROM pragma_page_size), (SELECT page_count FROM pragma_page_count),
		(SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?1),
		(SELECT rootpage FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1)`, TilesTable).
		Scan(&pageSize, &pageCount, &root, &indexRoot)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	w, err := newTableWriter(path, pageSize, pageCount, root)
	if err != nil {
		return err
	}
	defer w.close()
	r, err := openBlobReader(src)
	if err != nil {
		return err
	}
	defer r.close()
	// The index's keys, when few enough to sort in memory.
	var keys []indexKey
	if sel.Tiles() <= maxIndexKeys {
		keys = make([]indexKey, 0, sel.Tiles())
	}
	var copied int64
	for _, l := range sel.Levels {
		add := func(col, row int64, data []byte) error {
			id, err := w.add(l.Zoom, col, row, data)
			if err == nil && keys != nil {
				keys = append(keys, indexKey{int64(l.Zoom), col, row, id})
			}
			return err
		}
		for _, run := range l.ids {
			for first := run.first; ; first += maxBlockTiles {
				last := run.last
				if last-first >= maxBlockTiles { // no overflow: first <= last
					last = first + maxBlockTiles - 1
				}
				n, err := r.readRun(ctx, l.Zoom, first, last, add)
				if err != nil {
					return fmt.Errorf("copying the tiles of level %d, row ids %d..%d: %w", l.Zoom, first, last, err)
				}
				copied += n
				if err := tally(n); err != nil {
					return err
				}
				if last == run.last {
					break
				}
			}
		}
	}
	if copied != sel.Tiles() {
		return fmt.Errorf("copied %d tiles of the %d selected: %w", copied, sel.Tiles(), errCopyCount)
	}
	if err := r.close(); err != nil {
		return err
	}
	if err := w.finish(keys, indexRoot); err != nil {
		return fmt.Errorf("writing the tile table: %w", err)
	}
	return indexTiles(ctx, path, copied, keys == nil)
}

// indexTiles finishes the tile table that a tableWriter wrote, of rows
// rows, in the GeoPackage at path: with reindex, SQLite builds its index
// (a UNIQUE constraint: a tile twice fails it); it notes the last row id
// for AUTOINCREMENT.
func indexTiles(ctx context.Context, path string, rows int64, reindex bool) error {
	db, err := openWrite(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	// The index is built from the table read once in order and written
	// in order: a small page cache does (a large one costs its
	// allocation, each page apart, and freeing it at the end took a
	// second for 64 MiB: modernc.org/libc unmaps memory as it is freed).
	if reindex {
		if _, err := db.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = %d`, -reindexCacheKiB)); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `REINDEX `+TilesTable); err != nil {
			return fmt.Errorf("indexing the tiles: %w", err)
		}
	}
	if rows > 0 {
		if _, err := db.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`, TilesTable, rows); err != nil {
			return err
		}
	}
	return db.Close()
}

// tileCopier copies the selected tiles into the export's tile table
// within one transaction.
type tileCopier struct {
	// copy copies the tiles l selects, a block at a time, calling tally
	// with the tiles of each block; an error from tally stops it.
	copy func(ctx context.Context, l level, tally func(int64) error) error
	// copyAll copies every row of a GeoPackage source's tile table, in
	// one statement, and returns how many.
	copyAll func(ctx context.Context) (int64, error)
	commit  func(ctx context.Context) error
	close   func()
}

// attachSource copies every tile of a GeoPackage source (copyAll; an
// export of part of one is copyBlobs'): SQLite copies the rows of the
// attached source's tile table in one statement.
func attachSource(ctx context.Context, conn *sql.Conn, src *source) (tileCopier, error) {
	// The source is attached in the normal locking mode, not the
	// exclusive one of the file being built (which an attached database
	// takes by default): a source in WAL mode that a writer holds open
	// cannot be read in exclusive mode (SQLITE_BUSY).
	for _, p := range []string{`PRAGMA locking_mode = NORMAL`, `PRAGMA main.locking_mode = EXCLUSIVE`} {
		if _, err := conn.ExecContext(ctx, p); err != nil {
			return tileCopier{}, err
		}
	}
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS src`, fileURI(src.path, "mode=ro")); err != nil {
		return tileCopier{}, fmt.Errorf("attaching the source %s: %w", src.path, err)
	}
	// The source is read with plain reads, never through a memory map:
	// a mapped file cut short under the export kills the process
	// (SIGBUS), where a read past its end is an error or zeros, which
	// source.unchanged catches.
	if _, err := conn.ExecContext(ctx, `PRAGMA src.mmap_size = 0`); err != nil {
		return tileCopier{}, err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return tileCopier{}, err
	}
	return tileCopier{
		copy: func(context.Context, level, func(int64) error) error {
			return errors.New("a GeoPackage source's tiles are copied whole here, or by copyBlobs")
		},
		copyAll: func(ctx context.Context) (int64, error) {
			// INSERT … SELECT * of a table like the export's, into an
			// empty one: SQLite copies each row as stored, without
			// decoding it (its transfer optimization, as VACUUM does).
			res, err := tx.ExecContext(ctx, `INSERT INTO main.tiles SELECT * FROM src.`+quoteIdent(src.table))
			if err != nil {
				return 0, err
			}
			return res.RowsAffected()
		},
		commit: func(ctx context.Context) error {
			if err := tx.Commit(); err != nil {
				return err
			}
			_, err := conn.ExecContext(ctx, `DETACH DATABASE src`)
			return err
		},
		close: func() { tx.Rollback() },
	}, nil
}

// fileCopier copies from a directory source: each tile file is read and
// inserted as it is.
func fileCopier(ctx context.Context, conn *sql.Conn, src *source) (tileCopier, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return tileCopier{}, err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		tx.Rollback()
		return tileCopier{}, err
	}
	return tileCopier{
		copy: func(ctx context.Context, l level, tally func(int64) error) error {
			for _, r := range blocks(l.runs, maxBlockTiles) {
				var n int64
				for row := r.Row0; row <= r.Row1; row++ {
					for col := r.Col0; col <= r.Col1; col++ {
						if err := ctx.Err(); err != nil { // a stop is seen at every tile
							return err
						}
						b, err := src.read(ctx, l.Zoom, col, row)
						if err != nil {
							return err
						}
						if _, err := stmt.ExecContext(ctx, l.Zoom, col, row, b); err != nil {
							return err
						}
						n++
					}
				}
				if err := tally(n); err != nil {
					return err
				}
			}
			return nil
		},
		commit: func(context.Context) error {
			stmt.Close()
			return tx.Commit()
		},
		close: func() { stmt.Close(); tx.Rollback() },
	}, nil
}

// exportColumns are the columns of an export's tile table, in order.
const exportColumns = "id,zoom_level,tile_column,tile_row,tile_data"

// wholeSelected reports whether sel is every tile of the GeoPackage
// source's tile table and the table has the columns of an export's, in the
// same order, with an integer primary key: then the rows can be copied
// whole (tileCopier.copyAll).
func (s *source) wholeSelected(ctx context.Context, sel selection) (bool, error) {
	var cols string
	var idPK bool
	err := s.db.QueryRowContext(ctx, `SELECT group_concat(lower(name), ','),
		max(cid = 0 AND pk = 1 AND upper(type) = 'INTEGER') FROM (SELECT * FROM pragma_table_xinfo(?, 'main') ORDER BY cid)`,
		s.table).Scan(&cols, &idPK)
	if err != nil || cols != exportColumns || !idPK {
		return false, err
	}
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+quoteIdent(s.table)).Scan(&n); err != nil {
		return false, err
	}
	return n == sel.Tiles(), nil
}

// blocks merges runs of consecutive rows that span the same columns into
// blocks, so that a rectangular area is copied in one statement, of at
// most maxTiles tiles (or one row) each. The runs are in row order.
func blocks(runs []run, maxTiles int64) []tileRange {
	var out []tileRange
	for _, r := range runs {
		if n := len(out); n > 0 && out[n-1].Row1 == r.row-1 && out[n-1].Col0 == r.col0 && out[n-1].Col1 == r.col1 &&
			(out[n-1].Row1-out[n-1].Row0+2)*(r.col1-r.col0+1) <= maxTiles {
			out[n-1].Row1 = r.row
			continue
		}
		out = append(out, tileRange{Col0: r.col0, Col1: r.col1, Row0: r.row, Row1: r.row})
	}
	return out
}
