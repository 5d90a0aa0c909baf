package raster

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
)

// levelWritten is what an imagery export wrote at one level.
type levelWritten struct {
	tiles, bytes int64
}

// renderCopier writes the tiles of an imagery source: each selected tile
// is rendered and encoded on every core, and inserted in the selection's
// order. A tile without any data is not written (as GDAL writes none).
func renderCopier(ctx context.Context, conn *sql.Conn, src *source) (tileCopier, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return tileCopier{}, err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		tx.Rollback()
		return tileCopier{}, err
	}
	rd := src.render
	rd.written = map[int]levelWritten{}
	return tileCopier{
		copy: func(ctx context.Context, l level, tally func(int64) error) error {
			return rd.renderLevel(ctx, l, func(col, row int64, data []byte) error {
				if data != nil {
					if _, err := stmt.ExecContext(ctx, l.Zoom, col, row, data); err != nil {
						return err
					}
					w := rd.written[l.Zoom]
					w.tiles++
					w.bytes += int64(len(data))
					rd.written[l.Zoom] = w
				}
				return tally(1)
			})
		},
		commit: func(context.Context) error {
			stmt.Close()
			return tx.Commit()
		},
		close: func() { stmt.Close(); tx.Rollback() },
	}, nil
}

// stripTiles is the width, in tiles, of the strips a level is rendered
// in.
const stripTiles = 16

// rendered is one tile's encoded bytes (nil for a tile without data).
type rendered struct {
	i    int
	data []byte
	err  error
}

// renderLevel renders the tiles of l on GOMAXPROCS goroutines and calls
// emit for each, strip by strip (see stripTiles), from the calling
// goroutine. At
// most a few tiles per goroutine wait to be emitted. An error from a tile
// or from emit, or ctx ending, stops it.
func (rd *renderer) renderLevel(ctx context.Context, l level, emit func(col, row int64, data []byte) error) error {
	type pos struct{ col, row int64 }
	var tiles []pos
	for _, r := range l.runs {
		for c := r.col0; c <= r.col1; c++ {
			tiles = append(tiles, pos{c, r.row})
		}
	}
	// In strips of stripTiles columns, each from top to bottom: the
	// source blocks a strip's row of tiles meets stay few (and in the
	// cache) however wide the source, and each is decoded about once.
	slices.SortStableFunc(tiles, func(a, b pos) int {
		return cmp.Or(cmp.Compare(a.col/stripTiles, b.col/stripTiles), cmp.Compare(a.row, b.row), cmp.Compare(a.col, b.col))
	})
	if len(tiles) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := min(runtime.GOMAXPROCS(0), len(tiles))
	permits := make(chan struct{}, 4*workers)
	results := make(chan rendered, 4*workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := rd.newWork()
			for {
				select {
				case permits <- struct{}{}:
				case <-ctx.Done():
					return
				}
				i := int(next.Add(1) - 1)
				if i >= len(tiles) {
					return
				}
				res := rendered{i: i}
				res.err = guard.Run(func() error {
					// Each tile is rendered and encoded in a turn at CPU
					// work (see export.Pace).
					done, err := export.Pace(ctx)
					if err != nil {
						return err
					}
					defer done()
					t := tiles[i]
					any, err := rd.render(w, l.Zoom, t.col, t.row)
					if err != nil || !any {
						return err
					}
					res.data, err = rd.encode(w)
					return err
				})
				select {
				case results <- res:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	// Stop the workers before waiting for them: one may wait for a permit
	// that no emit will free once a tile's error ends the loop.
	defer func() { cancel(); wg.Wait() }()
	pending := map[int]rendered{}
	for done := 0; done < len(tiles); {
		select {
		case r := <-results:
			pending[r.i] = r
		case <-ctx.Done():
			return ctx.Err()
		}
		for {
			r, ok := pending[done]
			if !ok {
				break
			}
			delete(pending, done)
			if r.err != nil {
				return tileErr(l.Zoom, tiles[done].col, tiles[done].row, r.err)
			}
			if err := emit(tiles[done].col, tiles[done].row, r.data); err != nil {
				return err
			}
			<-permits
			done++
		}
	}
	return nil
}

// tileErr is the error of a tile that could not be rendered.
func tileErr(z int, col, row int64, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &tileError{z: z, col: col, row: row, err: err}
}
