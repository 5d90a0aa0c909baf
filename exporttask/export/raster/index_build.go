package raster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// errIndexTooLarge is a source whose tiles fill more than maxIndexCells
// cells: it has no selection index.
var errIndexTooLarge = errors.New("raster: the source's tiles fill more index cells than an index holds")

// cellKey locates a cell: its level, row and block.
type cellKey struct {
	z          int
	row, block int32
}

// indexBuilder gathers tiles into cells.
type indexBuilder struct {
	cells map[cellKey]*indexCell
}

// add counts the tile (col, row) of level z, of size bytes. A tile off the
// grid is left out: no export selects it.
func (b *indexBuilder) add(z int, col, row, size int64) error {
	if z < 0 || z > MaxLevel {
		return nil
	}
	w, h := matrixSize(z)
	if col < 0 || col >= w || row < 0 || row >= h || size < 0 {
		return nil
	}
	k := cellKey{z: z, row: int32(row), block: int32(col / cellColumns)}
	c := b.cells[k]
	if c == nil {
		if len(b.cells) >= maxIndexCells {
			return errIndexTooLarge
		}
		c = &indexCell{row: k.row, block: k.block}
		b.cells[k] = c
	}
	c.mask |= 1 << (col % cellColumns)
	c.sizes[col%cellColumns] = sizeCode(size)
	c.bytes += size
	c.largest = max(c.largest, uint32(min(size, math.MaxUint32)))
	return nil
}

// index returns the cells gathered, by level, row and block.
func (b *indexBuilder) index(identity string) *selectionIndex {
	keys := make([]cellKey, 0, len(b.cells))
	for k := range b.cells {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b cellKey) int {
		return cmp.Or(cmp.Compare(a.z, b.z), cmp.Compare(a.row, b.row), cmp.Compare(a.block, b.block))
	})
	ix := &selectionIndex{identity: identity}
	for _, k := range keys {
		if n := len(ix.levels); n == 0 || ix.levels[n-1].zoom != k.z {
			ix.levels = append(ix.levels, indexLevel{zoom: k.z})
		}
		l := &ix.levels[len(ix.levels)-1]
		l.cells = append(l.cells, *b.cells[k])
	}
	return ix
}

// indexIdentity is what a selection index of rec's source is valid for:
// the registered source's version (catalog.Source.Version: its path,
// format, table, size and content fingerprint, and a GeoPackage's
// write-ahead log), which openSource has checked the source still has;
// for a record without a registered source, the size and modification
// time of its tiles.gpkg.
func indexIdentity(rec catalog.Record, src *source) string {
	if rec.Source != nil {
		return "source " + rec.Source.Version()
	}
	if src.file == nil {
		return ""
	}
	return fmt.Sprintf("legacy %d %d", src.file.Size(), src.file.ModTime().UnixNano())
}

// buildIndex reads every tile's size from src (a GeoPackage's table in
// its own order, without reading the tiles' data; a directory's files by
// their names and sizes) into a selection index. It stops when ctx is
// done. A source with too many cells is errIndexTooLarge.
func buildIndex(ctx context.Context, src *source, identity string) (*selectionIndex, error) {
	b := &indexBuilder{cells: map[cellKey]*indexCell{}}
	var err error
	switch {
	case src.db != nil:
		err = b.addGPKG(ctx, src)
	case src.root != nil:
		err = b.addDir(ctx, src)
	default:
		return nil, errors.New("raster: only tile pyramids have a selection index")
	}
	if err != nil {
		return nil, err
	}
	return b.index(identity), nil
}

// ctxEvery is how many tiles the index's builder reads between two looks
// at its context.
const ctxEvery = 4096

// addGPKG adds the tiles of a GeoPackage's tile table.
func (b *indexBuilder) addGPKG(ctx context.Context, src *source) error {
	rows, err := src.db.QueryContext(ctx, `SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM `+
		quoteIdent(src.table))
	if err != nil {
		return fmt.Errorf("raster: indexing %s: %w", src.path, err)
	}
	defer rows.Close()
	for n := 0; rows.Next(); n++ {
		if n%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var z, col, row, size int64
		if err := rows.Scan(&z, &col, &row, &size); err != nil {
			return fmt.Errorf("raster: indexing %s: %w", src.path, err)
		}
		if z < 0 || z > MaxLevel {
			continue
		}
		if err := b.add(int(z), col, row, size); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("raster: indexing %s: %w", src.path, err)
	}
	return nil
}

// addDir adds the tiles of a tile directory: its files' names and sizes,
// no tile read. A tile that is not a regular file inside the directory is
// an error, as for an export (see walkLevel).
func (b *indexBuilder) addDir(ctx context.Context, src *source) error {
	levels, err := dirLevels(src.root)
	if err != nil {
		return fmt.Errorf("raster: indexing %s: %w", src.path, err)
	}
	n := 0
	for _, z := range levels {
		if z > MaxLevel {
			continue
		}
		err := src.walkLevel(z, func(col, fileRow int64, _ string, size int64) error {
			if n++; n%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			_, h := matrixSize(z)
			if fileRow >= h {
				return nil
			}
			return b.add(z, col, src.flipRow(z, fileRow), size)
		}, func(int64) bool { return ctx.Err() == nil })
		if err != nil {
			return fmt.Errorf("raster: indexing %s: %w", src.path, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}
