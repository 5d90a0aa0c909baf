package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the "sqlite" driver

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

// contender is one way of copying the tiles; it returns the tiles and tile
// bytes it copied.
type contender struct {
	name string
	run  func(ctx context.Context, dir string) (tiles, bytes int64, err error)
}

// runExport exports the whole record into dir.
func runExport(ctx context.Context, rec catalog.Record, dir string) (int64, int64, error) {
	j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain})
	if err != nil {
		return 0, 0, err
	}
	out := &dirOutput{dir: dir}
	arts, err := raster.New(raster.Options{TempDir: dir}).Export(ctx, j, out)
	if err != nil {
		return 0, 0, err
	}
	if len(arts) == 0 {
		return 0, 0, fmt.Errorf("no artifacts")
	}
	return out.total, out.tileBytes(dir), nil
}

// The pragmas of the bare copies' destination: those the exporter uses for
// its scratch GeoPackage. Like the exporter, they read the source through
// a memory map.
const destPragmas = "?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)"

const tilesDDL = `CREATE TABLE tiles (id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL,
	tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL,
	UNIQUE (zoom_level, tile_column, tile_row))`

// openDest creates a bare copy's destination: one connection, with the
// tile table.
func openDest(ctx context.Context, path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+destPragmas)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, tilesDDL); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// copyRows reads every tile row of src in Go and inserts it into a new
// file, in one transaction.
func copyRows(ctx context.Context, src, dir string) (int64, int64, error) {
	in, err := sql.Open("sqlite", "file:"+src+"?mode=ro&_pragma=mmap_size(1073741824)")
	if err != nil {
		return 0, 0, err
	}
	defer in.Close()
	out, err := openDest(ctx, filepath.Join(dir, "copy-rows.sqlite"))
	if err != nil {
		return 0, 0, err
	}
	defer out.Close()
	tx, err := out.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return 0, 0, err
	}
	defer stmt.Close()
	rows, err := in.QueryContext(ctx, `SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles`)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	var n, bytes int64
	for rows.Next() {
		var z, c, r int64
		var b []byte
		if err := rows.Scan(&z, &c, &r, &b); err != nil {
			return 0, 0, err
		}
		if _, err := stmt.ExecContext(ctx, z, c, r, b); err != nil {
			return 0, 0, err
		}
		n++
		bytes += int64(len(b))
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	return n, bytes, tx.Commit()
}

// copySQL copies every tile row of src into a new file with one
// INSERT … SELECT over an attached database, in one transaction: SQLite
// alone, no row crosses into Go.
func copySQL(ctx context.Context, src, dir string) (int64, int64, error) {
	out, err := openDest(ctx, filepath.Join(dir, "copy-sql.sqlite"))
	if err != nil {
		return 0, 0, err
	}
	defer out.Close()
	if _, err := out.ExecContext(ctx, `ATTACH DATABASE ? AS src`, "file:"+src+"?mode=ro"); err != nil {
		return 0, 0, err
	}
	if _, err := out.ExecContext(ctx, `PRAGMA src.mmap_size = 1073741824`); err != nil {
		return 0, 0, err
	}
	res, err := out.ExecContext(ctx, `INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data)
		SELECT zoom_level, tile_column, tile_row, tile_data FROM src.tiles`)
	if err != nil {
		return 0, 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, 0, err
	}
	var bytes int64
	if err := out.QueryRowContext(ctx, `SELECT sum(length(tile_data)) FROM main.tiles`).Scan(&bytes); err != nil {
		return 0, 0, err
	}
	return n, bytes, nil
}

// dirOutput is an exporttask.Output on a directory.
type dirOutput struct {
	dir   string
	total int64
}

func (o *dirOutput) Progress(done, total int64) error {
	o.total = total
	return nil
}

func (o *dirOutput) Create(_ context.Context, name string) (exporttask.ArtifactWriter, error) {
	f, err := os.CreateTemp(o.dir, ".partial-*")
	if err != nil {
		return nil, err
	}
	return &fileWriter{f: f, final: filepath.Join(o.dir, name)}, nil
}

// tileBytes reads the tile bytes the export's metadata counts.
func (o *dirOutput) tileBytes(dir string) int64 {
	st, err := os.Stat(filepath.Join(dir, raster.MetadataName))
	if err != nil || st.Size() == 0 {
		return 0
	}
	return readTileBytes(filepath.Join(dir, raster.MetadataName))
}

type fileWriter struct {
	f     *os.File
	final string
	n     int64
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *fileWriter) Commit() (exporttask.ArtifactInfo, error) {
	if err := w.f.Close(); err != nil {
		return exporttask.ArtifactInfo{}, err
	}
	if err := os.Rename(w.f.Name(), w.final); err != nil {
		return exporttask.ArtifactInfo{}, err
	}
	return exporttask.ArtifactInfo{Key: filepath.Base(w.final), Size: w.n}, nil
}

func (w *fileWriter) Abort() error {
	w.f.Close()
	return os.Remove(w.f.Name())
}
