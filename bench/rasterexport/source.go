package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

const recordID = "8b867544-2dab-43a1-be6e-f23ec83c19b4"

func square(w, s, e, n float64) *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}})
}

func sourcePath(rec exporttask.Record) string { return filepath.Join(rec.Location, raster.SourceName) }

// buildSource writes a record of side size degrees at levels 10..13 into
// dir. Rendering 10,000 tiles of relief would take minutes, and a copy
// does not look inside them: the tiles are the demo relief's level-11
// tiles, real PNGs of varied sizes, dealt out over the grid.
func buildSource(dir string, size float64) (exporttask.Record, int64, error) {
	pool, err := tilePool()
	if err != nil {
		return exporttask.Record{}, 0, err
	}
	rec := exporttask.Record{ID: recordID, Domain: exporttask.DomainRaster, Title: "bench",
		Footprint: square(34, 31, 34+size, 31+size), MinZoom: 10, MaxZoom: 13, Location: dir}
	if err := os.Remove(sourcePath(rec)); err != nil && !os.IsNotExist(err) {
		return exporttask.Record{}, 0, err
	}
	n, err := raster.WriteSource(dir, rec, func(z int, col, row int64) ([]byte, error) {
		return pool[(int64(z)*7919+col*104729+row*1299709)%int64(len(pool))], nil
	})
	return rec, n, err
}

// tilePool renders the demo relief at level 11 and returns its tiles.
func tilePool() ([][]byte, error) {
	dir, err := os.MkdirTemp("", "rasterexport-pool-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rec := exporttask.Record{ID: recordID, Domain: exporttask.DomainRaster,
		Footprint: square(34, 31, 35, 32), MinZoom: 11, MaxZoom: 11}
	if err := raster.WriteDemoSource(dir, rec); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, raster.SourceName)+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT tile_data FROM tiles`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pool [][]byte
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		pool = append(pool, b)
	}
	if len(pool) == 0 {
		return nil, fmt.Errorf("the demo relief has no tiles")
	}
	return pool, rows.Err()
}
