package raster

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
)

// source is a record's open tiles.gpkg.
type source struct {
	db   *sql.DB
	path string
}

// openSource opens and checks rec's source: the file exists, is a
// GeoPackage, and its tile matrix has the grid of this package at every
// level of rec. Any failure is an exporttask.PermanentError: retrying
// cannot fix a record's data.
func openSource(ctx context.Context, rec exporttask.Record) (*source, error) {
	path := filepath.Join(rec.Location, SourceName)
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, exporttask.Permanent("the tiles of catalog record "+rec.ID+" are missing", err)
	}
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, unreadable(rec, fmt.Errorf("%s is not a file", path))
	}
	db, err := openRead(path)
	if err != nil {
		return nil, unreadable(rec, err)
	}
	if err := checkSource(ctx, db, rec); err != nil {
		db.Close()
		return nil, unreadable(rec, fmt.Errorf("%s: %w", path, err))
	}
	return &source{db: db, path: path}, nil
}

// checkSource compares the source's tile matrix with the grid.
func checkSource(ctx context.Context, db *sql.DB, rec exporttask.Record) error {
	rows, err := db.QueryContext(ctx, `SELECT zoom_level, matrix_width, matrix_height, tile_width, tile_height
		FROM gpkg_tile_matrix WHERE table_name = ?`, TilesTable)
	if err != nil {
		return err
	}
	defer rows.Close()
	seen := map[int]bool{}
	for rows.Next() {
		var z int
		var w, h, tw, th int64
		if err := rows.Scan(&z, &w, &h, &tw, &th); err != nil {
			return err
		}
		if z < 0 || z > MaxLevel {
			continue
		}
		mw, mh := matrixSize(z)
		if w != mw || h != mh || tw != TileSize || th != TileSize {
			return fmt.Errorf("gpkg_tile_matrix level %d is %dx%d tiles of %dx%d pixels, want %dx%d of %dx%d",
				z, w, h, tw, th, mw, mh, TileSize, TileSize)
		}
		seen[z] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for z := rec.MinZoom; z <= rec.MaxZoom; z++ {
		if !seen[z] {
			return fmt.Errorf("gpkg_tile_matrix has no level %d", z)
		}
	}
	return nil
}

func (s *source) Close() error { return s.db.Close() }
