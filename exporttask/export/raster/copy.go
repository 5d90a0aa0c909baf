package raster

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
)

// sourceMmapBytes is the most of a source the copy maps into memory.
const sourceMmapBytes = 1 << 30

// progressSteps is about how many progress reports a copy makes.
const progressSteps = 100

// buildGeoPackage writes the export GeoPackage to path (a new, empty
// file): the GeoPackage tables for ts, then the selected tiles copied from
// the source file srcPath as stored (no decoding), in one transaction.
// Progress goes to out as tiles written out of sel.Tiles(); an error from
// it, or ctx ending, stops the copy.
func buildGeoPackage(ctx context.Context, path, srcPath string, ts tileSet, sel selection, out exporttask.Output) error {
	db, err := openWrite(path)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := createGeoPackage(ctx, db, ts); err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS src`, "file:"+srcPath+"?mode=ro"); err != nil {
		return fmt.Errorf("attaching the source %s: %w", srcPath, err)
	}
	// Read the source through a memory map: the copy reads each tile's
	// pages once, and a map saves a system call per page.
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA src.mmap_size = %d`, sourceMmapBytes)); err != nil {
		return err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data)
		SELECT zoom_level, tile_column, tile_row, tile_data FROM src.tiles
		WHERE zoom_level = ? AND tile_row BETWEEN ? AND ? AND tile_column BETWEEN ? AND ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()

	total := sel.Tiles()
	step := max(total/progressSteps, 1)
	var done, reported int64
	for _, l := range sel.Levels {
		for _, r := range blocks(l.runs) {
			res, err := stmt.ExecContext(ctx, l.Zoom, r.Row0, r.Row1, r.Col0, r.Col1)
			if err != nil {
				return fmt.Errorf("copying the tiles of level %d, columns %d..%d, rows %d..%d: %w",
					l.Zoom, r.Col0, r.Col1, r.Row0, r.Row1, err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			done += n
			if done-reported >= step {
				if err := out.Progress(done, total); err != nil {
					return err
				}
				reported = done
			}
		}
	}
	if done != total {
		return fmt.Errorf("copied %d tiles of the %d selected: the source changed during the export", done, total)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `DETACH DATABASE src`); err != nil {
		return err
	}
	if err := conn.Close(); err != nil {
		return err
	}
	return db.Close()
}

// blocks merges runs of consecutive rows that span the same columns into
// blocks, so that a rectangular area is copied in one statement. The runs
// are in row order.
func blocks(runs []run) []tileRange {
	var out []tileRange
	for _, r := range runs {
		if n := len(out); n > 0 && out[n-1].Row1 == r.row-1 && out[n-1].Col0 == r.col0 && out[n-1].Col1 == r.col1 {
			out[n-1].Row1 = r.row
			continue
		}
		out = append(out, tileRange{Col0: r.col0, Col1: r.col1, Row0: r.row, Row1: r.row})
	}
	return out
}
