package raster

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
)

// TileFunc returns the encoded image (PNG or JPEG, TileSize pixels square)
// of tile (col, row) of level z, or nil for no tile. It is called from
// several goroutines at once.
type TileFunc func(z int, col, row int64) ([]byte, error)

// WriteSource writes a RASTER record's source, dir/tiles.gpkg: a
// GeoPackage holding, at each level rec.MinZoom..rec.MaxZoom, the tiles
// that tile returns for every grid tile meeting rec.Footprint. The file
// appears complete or not at all. It returns the number of tiles written.
func WriteSource(dir string, rec catalog.Record, tile TileFunc) (int64, error) {
	fp, err := export.FromGeometry(rec.Footprint)
	if err != nil {
		return 0, fmt.Errorf("raster: record %s: footprint: %w", rec.ID, err)
	}
	if rec.MinZoom < 0 || rec.MaxZoom < rec.MinZoom || rec.MaxZoom > MaxLevel {
		return 0, fmt.Errorf("raster: record %s: levels %d..%d are not within 0..%d", rec.ID, rec.MinZoom, rec.MaxZoom, MaxLevel)
	}
	final := filepath.Join(dir, SourceName)
	tmp := final + ".partial"
	n, err := writeSource(tmp, rec, fp, tile)
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err != nil {
		return 0, errors.Join(fmt.Errorf("raster: record %s: writing %s: %w", rec.ID, final, err), removeIfExists(tmp))
	}
	return n, nil
}

// sourceTile is one tile on its way to the file.
type sourceTile struct {
	z        int
	col, row int64
	data     []byte
}

func writeSource(path string, rec catalog.Record, fp geom.MultiPolygon, tile TileFunc) (int64, error) {
	if err := removeIfExists(path); err != nil {
		return 0, err
	}
	db, err := openWrite(context.Background(), path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	ctx := context.Background()
	err = createGeoPackage(ctx, db, tileSet{Identifier: rec.Title, Description: "catalog record " + rec.ID,
		Extent: fp.BBox(), MinZoom: rec.MinZoom, MaxZoom: rec.MaxZoom})
	if err != nil {
		return 0, err
	}

	keys := make(chan sourceTile)
	tiles := make(chan sourceTile)
	stop := make(chan struct{})
	var stopOnce sync.Once
	var wg sync.WaitGroup
	var genErr error
	var errMu sync.Mutex
	fail := func(err error) {
		errMu.Lock()
		if genErr == nil {
			genErr = err
		}
		errMu.Unlock()
		stopOnce.Do(func() { close(stop) })
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer guard.OnPanic(fail)
			for k := range keys {
				b, err := tile(k.z, k.col, k.row)
				if err != nil {
					fail(fmt.Errorf("tile %d/%d/%d: %w", k.z, k.col, k.row, err))
					return
				}
				if b == nil {
					continue
				}
				k.data = b
				select {
				case tiles <- k:
				case <-stop:
					return
				}
			}
		}()
	}
	go func() {
		defer close(keys)
		defer guard.OnPanic(fail)
		for z := rec.MinZoom; z <= rec.MaxZoom; z++ {
			r := rangeOf(fp.BBox(), z)
			for row := r.Row0; row <= r.Row1 && r.Count() > 0; row++ {
				for col := r.Col0; col <= r.Col1; col++ {
					if !fp.IntersectsBox(tileBox(z, col, row)) {
						continue
					}
					select {
					case keys <- sourceTile{z: z, col: col, row: row}:
					case <-stop:
						return
					}
				}
			}
		}
	}()
	go func() { wg.Wait(); close(tiles) }()

	n, err := insertTiles(ctx, db, tiles)
	if err != nil {
		fail(err)
		for range tiles { // let the workers finish
		}
	}
	errMu.Lock()
	defer errMu.Unlock()
	if genErr != nil {
		return 0, genErr
	}
	return n, db.Close()
}

// insertTiles inserts every tile from the channel in one transaction.
func insertTiles(ctx context.Context, db *sql.DB, tiles <-chan sourceTile) (int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	var n int64
	for t := range tiles {
		if _, err := stmt.ExecContext(ctx, t.z, t.col, t.row, t.data); err != nil {
			return 0, fmt.Errorf("inserting tile %d/%d/%d: %w", t.z, t.col, t.row, err)
		}
		n++
	}
	return n, tx.Commit()
}

// removeIfExists removes path; a missing file is not an error.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
