package raster

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask/export"
)

// MaxTileBytes is the largest tile a source may hold, in a GeoPackage or
// as a file of a directory: 16 times the 256 kB of a 256×256 RGBA image
// stored raw. A larger one makes the export fail, as each tile passes
// through memory whole; a directory's is refused at catalog add too.
const MaxTileBytes = 4 << 20

// run is a row's consecutive columns col0..col1 of selected tiles.
type run struct {
	row, col0, col1 int64
}

// idRun is the consecutive row ids first..last of a GeoPackage tile table.
type idRun struct {
	first, last int64
}

// level is what a job selects at one level of the source.
type level struct {
	Zoom  int
	Tiles int64 // tiles present in the source and meeting the area
	Bytes int64 // their encoded size
	runs  []run
	// ids are the selected tiles' row ids in a GeoPackage, in increasing
	// order: the copy reads the tile table in its own order.
	ids []idRun
}

// selection is what a job selects at every exported level.
type selection struct {
	Levels []level
}

// Tiles and Bytes sum the levels.
func (s selection) Tiles() (n int64) {
	for _, l := range s.Levels {
		n += l.Tiles
	}
	return n
}

func (s selection) Bytes() (n int64) {
	for _, l := range s.Levels {
		n += l.Bytes
	}
	return n
}

// selectTiles finds the source tiles of levels minZoom..maxZoom that meet
// the job's area.
func selectTiles(ctx context.Context, src *source, j export.Job, minZoom, maxZoom int) (selection, error) {
	var sel selection
	for z := minZoom; z <= maxZoom; z++ {
		l, err := selectLevel(ctx, src, j, z)
		if err != nil {
			return selection{}, fmt.Errorf("raster: reading level %d of %s: %w", z, src.path, err)
		}
		sel.Levels = append(sel.Levels, l)
	}
	return sel, nil
}

func selectLevel(ctx context.Context, src *source, j export.Job, z int) (level, error) {
	l := level{Zoom: z}
	tiles, err := src.list(ctx, z, rangeOf(j.Box(), z))
	if err != nil {
		return level{}, err
	}
	for _, t := range tiles {
		if !j.IntersectsBox(tileBox(z, t.col, t.row)) {
			continue
		}
		if t.size > MaxTileBytes { // a file of a directory; see sizeLevel for a GeoPackage
			return level{}, &badSource{fmt.Sprintf("tile %d/%d/%d holds %d bytes, more than the %d a tile of "+
				"256×256 pixels may (MaxTileBytes)", z, t.col, t.row, t.size, MaxTileBytes)}
		}
		l.Tiles++
		l.Bytes += t.size
		if n := len(l.runs); n > 0 && l.runs[n-1].row == t.row && l.runs[n-1].col1 == t.col-1 {
			l.runs[n-1].col1 = t.col
		} else {
			l.runs = append(l.runs, run{row: t.row, col0: t.col, col1: t.col})
		}
		if src.db != nil {
			l.ids = append(l.ids, idRun{t.id, t.id})
		}
	}
	l.ids = mergeIDs(l.ids)
	if src.db != nil {
		if err := src.sizeLevel(ctx, &l); err != nil {
			return level{}, err
		}
	}
	return l, nil
}

// idRangeWhere selects the tiles of a run of row ids at one level: the
// row ids first, last and the level are its parameters. The unary + keeps
// SQLite from searching the (zoom_level, …) index for the level and then
// looking up every row it finds there, the plan it prefers without
// statistics: the row id range is the search, the table read in order.
const idRangeWhere = `WHERE rowid BETWEEN ? AND ? AND +zoom_level = ?`

// sizeLevel adds up the sizes of the tiles of l in a GeoPackage, a run of
// row ids at a time: the table is read in its own order (the records'
// headers only, not the tiles' overflow pages), where a size per tile
// listed in the index's order would read the table's pages at random.
func (s *source) sizeLevel(ctx context.Context, l *level) error {
	stmt, err := s.db.PrepareContext(ctx, `SELECT coalesce(sum(length(tile_data)), 0), coalesce(max(length(tile_data)), 0)
		FROM `+quoteIdent(s.table)+` `+idRangeWhere)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range l.ids {
		var sum, largest int64
		if err := stmt.QueryRowContext(ctx, r.first, r.last, l.Zoom).Scan(&sum, &largest); err != nil {
			return err
		}
		if largest > MaxTileBytes {
			return &badSource{fmt.Sprintf("a tile of level %d (row ids %d..%d) holds %d bytes, more than the %d "+
				"a tile of 256×256 pixels may (MaxTileBytes)", l.Zoom, r.first, r.last, largest, MaxTileBytes)}
		}
		l.Bytes += sum
	}
	return nil
}

// mergeIDs sorts runs of ids and merges those that touch. The ids are
// distinct.
func mergeIDs(ids []idRun) []idRun {
	slices.SortFunc(ids, func(a, b idRun) int { return cmp.Compare(a.first, b.first) })
	var out []idRun
	for _, r := range ids {
		if n := len(out); n > 0 && out[n-1].last+1 == r.first {
			out[n-1].last = r.last
			continue
		}
		out = append(out, r)
	}
	return out
}
