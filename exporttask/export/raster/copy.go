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

// attachSource copies from a GeoPackage source: SQLite copies the rows of
// the attached source's tile table, a block per statement.
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
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return tileCopier{}, err
	}
	// One statement per run of consecutive row ids: the source is read in
	// its own order, each page once, as a copy of the whole table would.
	// The level is checked again, and the count (see buildGeoPackage).
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data)
		SELECT zoom_level, tile_column, tile_row, tile_data FROM src.`+quoteIdent(src.table)+`
		`+idRangeWhere)
	if err != nil {
		tx.Rollback()
		return tileCopier{}, err
	}
	return tileCopier{
		copy: func(ctx context.Context, l level, tally func(int64) error) error {
			for _, r := range l.ids {
				for first := r.first; ; first += maxBlockTiles {
					last := r.last
					if last-first >= maxBlockTiles { // no overflow: first <= last
						last = first + maxBlockTiles - 1
					}
					res, err := stmt.ExecContext(ctx, first, last, l.Zoom)
					if err != nil {
						return fmt.Errorf("tiles of row ids %d..%d: %w", first, last, err)
					}
					n, err := res.RowsAffected()
					if err != nil {
						return err
					}
					if err := tally(n); err != nil {
						return err
					}
					if last == r.last {
						break
					}
				}
			}
			return nil
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
			stmt.Close()
			if err := tx.Commit(); err != nil {
				return err
			}
			_, err := conn.ExecContext(ctx, `DETACH DATABASE src`)
			return err
		},
		close: func() { stmt.Close(); tx.Rollback() },
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
