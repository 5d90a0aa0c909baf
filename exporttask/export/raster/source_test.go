package raster_test

import (
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

func TestWriteSourceWritesEveryTileMeetingTheFootprint(t *testing.T) {
	// A footprint inside one level-3 tile (22.5° square): 1 tile at levels
	// 0..3, whatever the renderer returns.
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Footprint: square(1, 1, 2, 2), MinZoom: 0, MaxZoom: 3}
	dir := t.TempDir()
	var calls atomic.Int64
	n, err := raster.WriteSource(dir, rec, func(z int, col, row int64) ([]byte, error) {
		calls.Add(1)
		return []byte{byte(z), byte(col), byte(row)}, nil
	})
	require.NoError(t, err)
	assert.Equal(t, int64(4), n)
	assert.Equal(t, int64(4), calls.Load())
	got := readTiles(t, filepath.Join(dir, raster.SourceName))
	// Level 3: tiles of 22.5°; lon 1 is column 8, lat 2 is row 3.
	assert.Equal(t, []byte{3, 8, 3}, got[tileKey{3, 8, 3}])
	assert.Len(t, got, 4)
}

func TestWriteSourceFailureLeavesNothing(t *testing.T) {
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32), MinZoom: 0, MaxZoom: 8}
	dir := t.TempDir()
	boom := errors.New("boom")
	_, err := raster.WriteSource(dir, rec, func(z int, col, row int64) ([]byte, error) {
		if z == 8 {
			return nil, boom
		}
		return []byte{1}, nil
	})
	require.ErrorIs(t, err, boom)
	assert.Empty(t, dirEntries(t, dir))

	rec.MaxZoom = raster.MaxLevel + 1
	_, err = raster.WriteSource(dir, rec, nil)
	assert.ErrorContains(t, err, "levels")
}
