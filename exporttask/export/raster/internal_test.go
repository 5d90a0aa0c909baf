package raster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

func TestBlocksMergeRowsOfTheSameSpan(t *testing.T) {
	runs := []run{{row: 3, col0: 1, col1: 4}, {row: 4, col0: 1, col1: 4}, {row: 5, col0: 2, col1: 4},
		{row: 5, col0: 6, col1: 6}, {row: 7, col0: 6, col1: 6}}
	assert.Equal(t, []tileRange{
		{Col0: 1, Col1: 4, Row0: 3, Row1: 4},
		{Col0: 2, Col1: 4, Row0: 5, Row1: 5},
		{Col0: 6, Col1: 6, Row0: 5, Row1: 5},
		{Col0: 6, Col1: 6, Row0: 7, Row1: 7}, // row 6 missing: not merged
	}, blocks(runs, 1000))
}

func TestBlocksHoldAtMostMaxTiles(t *testing.T) {
	var runs []run
	for row := int64(10); row < 20; row++ {
		runs = append(runs, run{row: row, col0: 0, col1: 2})
	}
	assert.Equal(t, []tileRange{
		{Col0: 0, Col1: 2, Row0: 10, Row1: 13},
		{Col0: 0, Col1: 2, Row0: 14, Row1: 17},
		{Col0: 0, Col1: 2, Row0: 18, Row1: 19},
	}, blocks(runs, 12))
	wide := []run{{row: 1, col0: 0, col1: 99}, {row: 2, col0: 0, col1: 99}}
	assert.Equal(t, []tileRange{{Col0: 0, Col1: 99, Row0: 1, Row1: 1}, {Col0: 0, Col1: 99, Row0: 2, Row1: 2}},
		blocks(wide, 12), "a row wider than the bound is a block of its own")
}

func TestPixelMatchesAt(t *testing.T) {
	n := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	n.SetNRGBA(0, 0, color.NRGBA{R: 200, G: 100, B: 50, A: 128})
	n.SetNRGBA(1, 0, color.NRGBA{R: 10, G: 20, B: 30, A: 255})
	g := image.NewGray(image.Rect(0, 0, 1, 1))
	g.SetGray(0, 0, color.Gray{Y: 77})
	for _, img := range []image.Image{n, g} {
		for x := range img.Bounds().Dx() {
			r, gg, b, a := img.At(x, 0).RGBA()
			pr, pg, pb, pa := pixel(img, x, 0)
			assert.InDelta(t, r>>8, pr, 1)
			assert.InDelta(t, gg>>8, pg, 1)
			assert.InDelta(t, b>>8, pb, 1)
			assert.Equal(t, a>>8, pa)
		}
	}
}

func TestRangeOfLeavesTouchingTilesOut(t *testing.T) {
	// Level 2 tiles are 45° wide: lon 0..45 is column 4 alone, lat 0..45
	// row 1 alone.
	r := rangeOf(gridBox.Intersect(tileBox(2, 4, 1)), 2)
	assert.Equal(t, tileRange{Col0: 4, Col1: 4, Row0: 1, Row1: 1}, r)
	assert.Equal(t, int64(8*4), rangeOf(gridBox, 2).Count())
}

func TestGeodeticGridsTellGdal2tilesGridsApart(t *testing.T) {
	// Data over lon 34–35, lat 31.25–32 at level 5: gdal2tiles writes
	// column 38, TMS row 21 with --tmscompatible (5.625° tiles), column
	// 19, row 10 without (11.25° tiles).
	box := geom.BBox{West: 34, South: 31.25, East: 35, North: 32}
	assert.Equal(t, []int{gridTMSCompatible}, geodeticGrids(box, 5, 38, 38, 21, 21))
	assert.Equal(t, []int{gridOneTileAtZero}, geodeticGrids(box, 5, 19, 19, 10, 10))
	assert.Empty(t, geodeticGrids(box, 5, 40, 40, 21, 21))
	// In the south-west corner tile both grids number the tile 0, 0.
	corner := geom.BBox{West: -179.9, South: -89.9, East: -179.8, North: -89.8}
	assert.Len(t, geodeticGrids(corner, 3, 0, 0, 0, 0), 2)
}

func TestTileFormatByMagic(t *testing.T) {
	assert.Equal(t, "png", tileFormat([]byte("\x89PNG\r\n\x1a\n....")))
	assert.Equal(t, "jpeg", tileFormat([]byte{0xFF, 0xD8, 0xFF, 0xE0}))
	assert.Equal(t, "webp", tileFormat([]byte("RIFF\x10\x00\x00\x00WEBPVP8 ")))
	assert.Empty(t, tileFormat([]byte("GIF89a")))
	assert.Empty(t, tileFormat(nil))
	assert.ErrorContains(t, checkTile([]byte("GIF89a")), "not a PNG, JPEG or WebP")
}

func TestUnreadableLeavesContextEndsAlone(t *testing.T) {
	rec := catalog.Record{ID: "r"}
	stopped := fmt.Errorf("reading: %w", context.Canceled)
	assert.Same(t, stopped, unreadable(rec, stopped))
	assert.False(t, export.IsPermanent(unreadable(rec, stopped)))
	assert.True(t, export.IsPermanent(unreadable(rec, errors.New("malformed"))))
}

func TestCopyHashedCopiesAndHashes(t *testing.T) {
	for _, size := range []int{0, 1, copyChunk - 1, copyChunk, copyChunk + 1, 3*copyChunk + 17} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i * 7)
		}
		var got bytes.Buffer
		n, sum, err := copyHashed(context.Background(), &got, bytes.NewReader(data))
		assert.NoError(t, err)
		assert.EqualValues(t, size, n)
		assert.True(t, bytes.Equal(data, got.Bytes()), "size %d", size)
		want := sha256.Sum256(data)
		assert.Equal(t, want[:], sum, "size %d", size)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := copyHashed(ctx, io.Discard, bytes.NewReader(make([]byte, 10)))
	assert.ErrorIs(t, err, context.Canceled)
	_, _, err = copyHashed(context.Background(), failWriter{}, bytes.NewReader(make([]byte, 3*copyChunk)))
	assert.ErrorContains(t, err, "disk full")
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
