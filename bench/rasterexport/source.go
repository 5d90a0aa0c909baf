package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

const recordID = "8b867544-2dab-43a1-be6e-f23ec83c19b4"

func square(w, s, e, n float64) *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}})
}

func sourcePath(rec catalog.Record) string { return filepath.Join(rec.Location, raster.SourceName) }

// record is the bench's record, with its source in dir.
func record(dir string, size float64) catalog.Record {
	return catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Title: "bench",
		Footprint: square(34, 31, 34+size, 31+size), MinZoom: 10, MaxZoom: 13, Location: dir}
}

// buildSource writes a record of side size degrees at levels 10..13 into
// dir, unless dir holds it already (from an earlier run with -keep and
// the same -size). Rendering 200,000 tiles of relief would take long, and
// a copy does not look inside them: the tiles are the demo relief's
// level-11 tiles, real PNGs of varied sizes, dealt out over the grid.
func buildSource(dir string, size float64) (rec catalog.Record, tiles int64, built bool, err error) {
	rec = record(dir, size)
	marker := filepath.Join(dir, "rasterexport-size")
	want := strconv.FormatFloat(size, 'g', -1, 64)
	if b, err := os.ReadFile(marker); err == nil && string(b) == want {
		if n, err := countTiles(sourcePath(rec)); err == nil {
			return rec, n, false, nil
		}
	}
	pool, err := tilePool()
	if err != nil {
		return rec, 0, false, err
	}
	if err := os.Remove(sourcePath(rec)); err != nil && !os.IsNotExist(err) {
		return rec, 0, false, err
	}
	n, err := raster.WriteSource(dir, rec, func(z int, col, row int64) ([]byte, error) {
		return pool[(int64(z)*7919+col*104729+row*1299709)%int64(len(pool))], nil
	})
	if err != nil {
		return rec, 0, false, err
	}
	return rec, n, true, os.WriteFile(marker, []byte(want), 0o644)
}

// countTiles counts the tiles of a source.
func countTiles(path string) (int64, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int64
	err = db.QueryRow(`SELECT count(*) FROM tiles`).Scan(&n)
	return n, err
}

// tilePool renders the demo relief at level 11 and returns its tiles.
func tilePool() ([][]byte, error) {
	dir, err := os.MkdirTemp("", "rasterexport-pool-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster,
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

// buildTMS writes the tiles of rec's source as a TMS directory under dir
// (z/x/y.png, row 0 at the bottom, with the tilemapresource.xml gdal2tiles
// -p geodetic --tmscompatible writes).
func buildTMS(ctx context.Context, rec catalog.Record, dir string) error {
	db, err := sql.Open("sqlite", "file:"+sourcePath(rec)+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var z, col, row int64
		var b []byte
		if err := rows.Scan(&z, &col, &row, &b); err != nil {
			return err
		}
		colDir := filepath.Join(dir, strconv.FormatInt(z, 10), strconv.FormatInt(col, 10))
		if err := os.MkdirAll(colDir, 0o755); err != nil {
			return err
		}
		name := strconv.FormatInt(int64(1)<<z-1-row, 10) + ".png"
		if err := os.WriteFile(filepath.Join(colDir, name), b, 0o644); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	fp := rec.Footprint.Polygon[0]
	var sets strings.Builder
	for z := rec.MinZoom; z <= rec.MaxZoom; z++ {
		fmt.Fprintf(&sets, "    <TileSet href=\"%d\" units-per-pixel=\"%.14f\" order=\"%d\"/>\n", z, 0.703125/float64(int64(1)<<z), z)
	}
	xml := fmt.Sprintf(`<?xml version="1.0" encoding="utf-8"?>
<TileMap version="1.0.0" tilemapservice="http://tms.osgeo.org/1.0.0">
  <Title>bench</Title>
  <SRS>EPSG:4326</SRS>
  <BoundingBox minx="%f" miny="%f" maxx="%f" maxy="%f"/>
  <TileFormat width="256" height="256" mime-type="image/png" extension="png"/>
  <TileSets profile="geodetic">
%s  </TileSets>
</TileMap>
`, fp[0][0], fp[0][1], fp[2][0], fp[2][1], sets.String())
	return os.WriteFile(filepath.Join(dir, raster.TileMapResource), []byte(xml), 0o644)
}

// register inspects a source and returns its record, with rec's id, and
// how long raster.Inspect took.
func register(ctx context.Context, rec catalog.Record, src catalog.Source) (catalog.Record, time.Duration, error) {
	start := time.Now()
	r, err := raster.Inspect(ctx, src)
	d := time.Since(start)
	r.ID, r.Location = rec.ID, rec.Location
	return r, d, err
}
