package raster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

const indexTestID = "8b867544-2dab-43a1-be6e-f23ec83c19b4"

// rectROI is the region of interest of one rectangle.
func rectROI(w, s, e, n float64) *exporttask.FeatureCollection { return jobtest.Rect(w, s, e, n) }

// demoRecord writes the demo source (lon 34–35, lat 31–32) at levels
// minZoom..maxZoom as a record without a registered source.
func demoRecord(t testing.TB, minZoom, maxZoom int) catalog.Record {
	t.Helper()
	rec := catalog.Record{ID: indexTestID, Domain: exporttask.DomainRaster, Footprint: jobtest.DemoFootprint(),
		MinZoom: minZoom, MaxZoom: maxZoom, Location: t.TempDir()}
	require.NoError(t, WriteDemoSource(rec.Location, rec))
	return rec
}

// xyzDir writes an XYZ directory of levels 5..7 over the demo footprint
// with every third tile missing and tiles of different sizes, and returns
// it opened.
func xyzDir(t *testing.T) *source {
	t.Helper()
	dir := t.TempDir()
	n := 0
	for z := 5; z <= 7; z++ {
		r := rangeOf(geom.BBox{West: 34, South: 31, East: 35, North: 32}, z)
		for col := r.Col0 - 1; col <= r.Col1+1; col++ {
			for row := r.Row0 - 1; row <= r.Row1+1; row++ {
				if n++; n%3 == 0 {
					continue
				}
				name := filepath.Join(dir, fmt.Sprint(z), fmt.Sprint(col), fmt.Sprint(row)+".png")
				require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
				require.NoError(t, os.WriteFile(name, bytes.Repeat([]byte{1}, 100+n*7), 0o644))
			}
		}
	}
	src, err := openDir(dir, FormatXYZ)
	require.NoError(t, err)
	src.ext = "png"
	t.Cleanup(func() { src.Close() })
	return src
}

// TestIndexEstimateEqualsTheSelection: below exactTests candidates a
// level, the index counts the tiles the export selects, one by one, and
// their bytes within a few percent (a cell's tiles are taken at their
// mean size), for a GeoPackage and a directory with missing tiles.
func TestIndexEstimateEqualsTheSelection(t *testing.T) {
	rec := demoRecord(t, 5, 9)
	gpkg, err := openSource(t.Context(), rec)
	require.NoError(t, err)
	defer gpkg.Close()
	dir := xyzDir(t)
	rois := map[string]*exporttask.FeatureCollection{
		"whole":    nil,
		"square":   rectROI(34.2, 31.3, 34.8, 31.9),
		"triangle": jobtest.Triangle(),
		"tiny":     rectROI(34.501, 31.501, 34.502, 31.502),
		"edge":     rectROI(34.9, 31.0, 35.4, 31.1),
	}
	for name, src := range map[string]*source{"GPKG": gpkg, "XYZ": dir} {
		ix, err := buildIndex(t.Context(), src, "test")
		require.NoError(t, err)
		minZoom, maxZoom := 5, 9
		if src == dir {
			maxZoom = 7
		}
		for roiName, roi := range rois {
			t.Run(name+"/"+roiName, func(t *testing.T) {
				j := jobtest.Job(t, rec, roi)
				sel, err := selectTiles(t.Context(), src, j, minZoom, maxZoom)
				require.NoError(t, err)
				require.Positive(t, sel.Tiles())
				tiles, bytes, err := ix.estimate(j, minZoom, maxZoom)
				require.NoError(t, err)
				assert.Equal(t, sel.Tiles(), tiles)
				assert.InEpsilon(t, sel.Bytes(), bytes, 0.05, "index %d bytes, selection %d", bytes, sel.Bytes())
			})
		}
	}
}

// TestIndexEstimateSamplesALargeLevel: a level of 300,000 tiles under a
// triangle is estimated from at most about exactTests tests, within 1%.
func TestIndexEstimateSamplesALargeLevel(t *testing.T) {
	const z = 12
	b := &indexBuilder{cells: map[cellKey]*indexCell{}}
	size := func(col, row int64) int64 { return 1000 + (col*7+row*13)%5000 }
	for col := int64(3000); col < 3600; col++ {
		for row := int64(1000); row < 1500; row++ {
			require.NoError(t, b.add(z, col, row, size(col, row)))
		}
	}
	ix := b.index("test")
	area := tileBox(z, 3000, 1000)
	area.East, area.South = tileBox(z, 3599, 1499).East, tileBox(z, 3599, 1499).South
	rec := catalog.Record{ID: indexTestID, Domain: exporttask.DomainRaster, MinZoom: z, MaxZoom: z,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{area.West, area.South}, {area.East, area.South},
			{area.East, area.North}, {area.West, area.North}, {area.West, area.South}})}
	roi := &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature, Geometry: exporttask.NewPolygon([]exporttask.Position{
			{area.West, area.South}, {area.East, area.South}, {area.West, area.North}, {area.West, area.South}}),
	}}}
	j := jobtest.Job(t, rec, roi)
	var wantTiles, wantBytes int64
	for col := int64(3000); col < 3600; col++ {
		for row := int64(1000); row < 1500; row++ {
			if j.IntersectsBox(tileBox(z, col, row)) {
				wantTiles++
				wantBytes += size(col, row)
			}
		}
	}
	tiles, bytes, err := ix.estimate(j, z, z)
	require.NoError(t, err)
	assert.InEpsilon(t, wantTiles, tiles, 0.01, "estimated %d tiles, selected %d", tiles, wantTiles)
	assert.InEpsilon(t, wantBytes, bytes, 0.01, "estimated %d bytes, selected %d", bytes, wantBytes)
}

// TestIndexFileRoundTrip: an index file reads back as written, and one of
// another identity, cut short, damaged or not a regular file is refused.
func TestIndexFileRoundTrip(t *testing.T) {
	rec := demoRecord(t, 5, 8)
	src, err := openSource(t.Context(), rec)
	require.NoError(t, err)
	defer src.Close()
	ix, err := buildIndex(t.Context(), src, "id one")
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), IndexName)
	require.NoError(t, writeIndexFile(p, "id one", ix))
	back, err := readIndexFile(p, "id one")
	require.NoError(t, err)
	assert.Equal(t, ix, back)

	_, err = readIndexFile(p, "id two")
	assert.ErrorIs(t, err, errIndexFile)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	for name, bad := range map[string][]byte{
		"cut short": data[:len(data)-10],
		"damaged":   append(append([]byte{}, data[:len(data)/2]...), append([]byte{data[len(data)/2] ^ 1}, data[len(data)/2+1:]...)...),
		"empty":     nil,
	} {
		require.NoError(t, os.WriteFile(p, bad, 0o644), name)
		_, err = readIndexFile(p, "id one")
		assert.Error(t, err, name)
	}

	fifo := filepath.Join(t.TempDir(), IndexName)
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	_, err = readIndexFile(fifo, "id one") // returns: a FIFO is never opened for reading
	assert.Error(t, err)

	require.NoError(t, writeIndexFile(p, "id one", nil))
	back, err = readIndexFile(p, "id one")
	require.NoError(t, err)
	assert.Nil(t, back, "the file of a source too large for an index")
}

// TestEstimateReadsTheIndexNotTheSource: once a record has an index file
// of its source's identity, a create's estimate counts from it, not from
// the tiles: an index doctored to hold one tile of 5,000 bytes makes a
// new Exporter estimate one tile. Before the index, estimates selected
// the tiles from the source.
func TestEstimateReadsTheIndexNotTheSource(t *testing.T) {
	rec := demoRecord(t, 5, 8)
	j := jobtest.Job(t, rec, nil)
	x := New(Options{})
	before, err := x.Estimate(t.Context(), j)
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(rec.Location, IndexName), "the first estimate writes the index")

	src, err := openSource(t.Context(), rec)
	require.NoError(t, err)
	identity := indexIdentity(rec, src)
	src.Close()
	b := &indexBuilder{cells: map[cellKey]*indexCell{}}
	r := rangeOf(geom.BBox{West: 34.4, South: 31.4, East: 34.6, North: 31.6}, 8)
	require.NoError(t, b.add(8, r.Col0, r.Row0, 5000))
	require.NoError(t, writeIndexFile(filepath.Join(rec.Location, IndexName), identity, b.index(identity)))

	after, err := New(Options{}).Estimate(t.Context(), j)
	require.NoError(t, err)
	assert.Less(t, after.Size, before.Size)
	assert.Equal(t, int64(gpkgBaseBytes+5000+gpkgBytesPerTile+metadataBytes), after.Size-thumbnailBytes(j, 5000))

	again, err := x.Estimate(t.Context(), j)
	require.NoError(t, err)
	assert.Equal(t, before, again, "an Exporter keeps the index it read")
}

// thumbnailBytes is what Estimate adds for the thumbnails of one tile of
// n bytes.
func thumbnailBytes(j export.Job, n int64) int64 {
	return int64(float64(n) / float64(TileSize*TileSize) * thumbnailPixels(j))
}

// TestIndexBuildStopsWhenCancelled: building an index is a read of every
// tile's size; a cancelled context stops it.
func TestIndexBuildStopsWhenCancelled(t *testing.T) {
	rec := demoRecord(t, 5, 8)
	src, err := openSource(t.Context(), rec)
	require.NoError(t, err)
	defer src.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = buildIndex(ctx, src, "x")
	assert.ErrorIs(t, err, context.Canceled)
}

// TestIndexHasABound: a source scattering more tiles than maxIndexCells
// cells has no index (errIndexTooLarge), rather than one of unbounded size.
func TestIndexHasABound(t *testing.T) {
	b := &indexBuilder{cells: map[cellKey]*indexCell{}}
	var err error
	for i := int64(0); i <= maxIndexCells && err == nil; i++ {
		err = b.add(20, (i%8192)*cellColumns, i/8192, 1)
	}
	assert.ErrorIs(t, err, errIndexTooLarge)
	assert.Len(t, b.cells, maxIndexCells)
}
