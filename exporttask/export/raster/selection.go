package raster

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// run is a row's consecutive columns col0..col1 of selected tiles.
type run struct {
	row, col0, col1 int64
}

// level is what a job selects at one level of the source.
type level struct {
	Zoom  int
	Tiles int64 // tiles present in the source and meeting the area
	Bytes int64 // their encoded size
	runs  []run
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
	tiles, err := src.list(ctx, z, rangeOf(geom.BBox(j.Box), z))
	if err != nil {
		return level{}, err
	}
	for _, t := range tiles {
		if !j.IntersectsBox(export.Box(tileBox(z, t.col, t.row))) {
			continue
		}
		l.Tiles++
		l.Bytes += t.size
		if n := len(l.runs); n > 0 && l.runs[n-1].row == t.row && l.runs[n-1].col1 == t.col-1 {
			l.runs[n-1].col1 = t.col
		} else {
			l.runs = append(l.runs, run{row: t.row, col0: t.col, col1: t.col})
		}
	}
	return l, nil
}
