package raster

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
)

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
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data)
		SELECT zoom_level, tile_column, tile_row, tile_data FROM src.tiles
		WHERE zoom_level = ? AND tile_row = ? AND tile_column BETWEEN ? AND ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()

	total := sel.Tiles()
	step := max(total/progressSteps, 1)
	var done, reported int64
	for _, l := range sel.Levels {
		for _, r := range l.runs {
			res, err := stmt.ExecContext(ctx, l.Zoom, r.row, r.col0, r.col1)
			if err != nil {
				return fmt.Errorf("copying tiles %d/%d..%d/%d: %w", l.Zoom, r.col0, r.col1, r.row, err)
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
