package raster_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// tileKey is a tile's level, column and row.
type tileKey struct{ z, col, row int64 }

// readTiles returns the tiles of a GeoPackage.
func readTiles(t *testing.T, path string) map[tileKey][]byte {
	t.Helper()
	rows, err := openGPKG(t, path).Query(`SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles`)
	require.NoError(t, err)
	defer rows.Close()
	out := map[tileKey][]byte{}
	for rows.Next() {
		var k tileKey
		var b []byte
		require.NoError(t, rows.Scan(&k.z, &k.col, &k.row, &b))
		out[k] = b
	}
	require.NoError(t, rows.Err())
	return out
}

// tileBounds is the extent of a tile, computed here independently of the
// package: 180/2^z degrees a side, row 0 at latitude 90.
func tileBounds(k tileKey) geom.BBox {
	d := 180 / float64(int64(1)<<k.z)
	w, n := -180+float64(k.col)*d, 90-float64(k.row)*d
	return geom.BBox{West: w, South: n - d, East: w + d, North: n}
}

func TestExportWholeRecord(t *testing.T) {
	rec := fixture(t)
	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{}))

	// One artifact of each type, each as listed.
	types := map[exporttask.ArtifactType]bool{}
	for _, a := range arts {
		types[a.Type] = true
		b, err := os.ReadFile(filepath.Join(out.Path, a.Name))
		require.NoError(t, err)
		assert.Equal(t, a.Size, int64(len(b)), a.Name)
		sum := sha256.Sum256(b)
		assert.Equal(t, hex.EncodeToString(sum[:]), a.SHA256, a.Name)
	}
	assert.Len(t, arts, 5)
	for _, typ := range []exporttask.ArtifactType{exporttask.ArtifactGPKG, exporttask.ArtifactMetadata,
		exporttask.ArtifactThumbnailsSmall, exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge} {
		assert.True(t, types[typ], "missing %s", typ)
	}
	assert.Len(t, dirEntries(t, out.Path), 5, "no temporary file left")

	// Every source tile is there, byte for byte.
	src := readTiles(t, filepath.Join(rec.Location, raster.SourceName))
	got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
	require.NotEmpty(t, src)
	assert.Equal(t, src, got)

	// Progress ends at all tiles out of all tiles, never going back.
	reports := out.Reports()
	require.NotEmpty(t, reports)
	assert.Equal(t, [2]int64{int64(len(src)), int64(len(src))}, reports[len(reports)-1])
	for i := 1; i < len(reports); i++ {
		assert.GreaterOrEqual(t, reports[i][0], reports[i-1][0])
	}

	// The metadata tells the same story, as a STAC Item.
	meta := readItem(t, out, arts)
	assert.Equal(t, recordID, meta.Property(t, "recordID"))
	assert.Equal(t, "RASTER", meta.Property(t, "domain"))
	assert.Equal(t, []float64{34, 31, 35, 32}, meta.BBox)
	assert.JSONEq(t, `{"type":"Polygon","coordinates":[[[34,31],[35,31],[35,32],[34,32],[34,31]]]}`, string(meta.Geometry),
		"no ROI: the footprint")
	assert.EqualValues(t, fixtureMin, meta.Property(t, "minZoom"))
	assert.EqualValues(t, fixtureMax, meta.Property(t, "maxZoom"))
	assert.Len(t, meta.Property(t, "levels"), fixtureMax-fixtureMin+1)
	assert.EqualValues(t, len(src), meta.Property(t, "tiles"))
	dt, err := time.Parse(time.RFC3339, meta.Properties["datetime"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), dt, time.Minute, "datetime is the export's time")
	assert.Equal(t, []string{"data"}, meta.Assets[recordID+".gpkg"].Roles)
	assert.Equal(t, []string{"thumbnail"}, meta.Assets["thumbnail-small.png"].Roles)

	// Thumbnails: PNGs whose longest side is 128, 256, 512 (square area).
	for typ, size := range map[exporttask.ArtifactType]int{exporttask.ArtifactThumbnailsSmall: 128,
		exporttask.ArtifactThumbnailsMedium: 256, exporttask.ArtifactThumbnailsLarge: 512} {
		f, err := os.Open(artifactPath(t, out, arts, typ))
		require.NoError(t, err)
		cfg, err := png.DecodeConfig(f)
		f.Close()
		require.NoError(t, err)
		assert.Equal(t, size, cfg.Width, typ)
		assert.Equal(t, size, cfg.Height, typ)
	}
}

func TestExportROIKeepsOnlyTilesMeetingIt(t *testing.T) {
	rec := fixture(t)
	// A triangle over the south-west half of the footprint's west part.
	tri := exporttask.NewPolygon([]exporttask.Position{{34.1, 31.1}, {34.9, 31.1}, {34.1, 31.9}, {34.1, 31.1}})
	j := job(t, rec, exporttask.CreateRequest{ROI: roiOf(tri)})
	out, arts := exportTo(t, j)

	roi, err := export.FromGeometry(tri)
	require.NoError(t, err)
	src := readTiles(t, filepath.Join(rec.Location, raster.SourceName))
	got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
	var want, dropped int
	for k, b := range src {
		if roi.IntersectsBox(tileBounds(k)) {
			want++
			assert.Equal(t, b, got[k], "tile %v", k)
		} else {
			dropped++
			assert.NotContains(t, got, k)
		}
	}
	assert.Len(t, got, want)
	assert.Positive(t, dropped, "the ROI must leave some tiles out for this test to mean anything")

	// The large thumbnail is clear outside the triangle, opaque inside.
	f, err := os.Open(artifactPath(t, out, arts, exporttask.ArtifactThumbnailsLarge))
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 512, 512), img.Bounds())
	_, _, _, aOut := img.At(500, 10).RGBA() // north-east corner: outside
	_, _, _, aIn := img.At(20, 490).RGBA()  // south-west corner: inside
	assert.Zero(t, aOut)
	assert.Equal(t, uint32(0xffff), aIn)
}

func TestExportMaxZoom(t *testing.T) {
	rec := fixture(t)
	j := job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"maxZoom": float64(fixtureMin + 1)}})
	out, arts := exportTo(t, j)
	got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
	require.NotEmpty(t, got)
	for k := range got {
		assert.LessOrEqual(t, k.z, int64(fixtureMin+1))
	}
	var levels []int
	rows, err := openGPKG(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG)).Query(
		`SELECT zoom_level FROM gpkg_tile_matrix ORDER BY zoom_level`)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var z int
		require.NoError(t, rows.Scan(&z))
		levels = append(levels, z)
	}
	assert.Equal(t, []int{fixtureMin, fixtureMin + 1}, levels)
}

func TestBadParameters(t *testing.T) {
	rec := fixture(t)
	cases := []struct {
		name    string
		params  map[string]any
		pointer string
	}{
		{"maxZoom too deep", map[string]any{"maxZoom": float64(fixtureMax + 1)}, "/parameters/maxZoom"},
		{"maxZoom too shallow", map[string]any{"maxZoom": float64(fixtureMin - 1)}, "/parameters/maxZoom"},
		{"maxZoom not an integer", map[string]any{"maxZoom": 6.5}, "/parameters/maxZoom"},
		{"maxZoom a string", map[string]any{"maxZoom": "7"}, "/parameters/maxZoom"},
		{"resolution negative", map[string]any{"maxResolutionDeg": -1.0}, "/parameters/maxResolutionDeg"},
		{"both", map[string]any{"maxZoom": 6.0, "maxResolutionDeg": 0.01}, "/parameters/maxResolutionDeg"},
	}
	x := raster.New(raster.Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := job(t, rec, exporttask.CreateRequest{Parameters: c.params})
			_, err := x.Estimate(context.Background(), j)
			var ve *exporttask.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, c.pointer, ve.Problems[0].Pointer)

			dir := t.TempDir()
			_, err = x.Export(context.Background(), j, testout.New(dir))
			assert.True(t, export.IsPermanent(err), "%v", err)
			assert.Empty(t, dirEntries(t, dir))
		})
	}
}

func TestMaxResolutionDeg(t *testing.T) {
	rec := fixture(t)
	// Level 7's pixels are 180/256/128 ≈ 0.0055°: the first this fine.
	j := job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"maxResolutionDeg": 0.006}})
	out, arts := exportTo(t, j)
	meta := readItem(t, out, arts)
	assert.EqualValues(t, 7, meta.Property(t, "maxZoom"))
}

func TestEstimateIsCloseToTheExport(t *testing.T) {
	rec := fixture(t)
	for _, r := range []exporttask.CreateRequest{
		{},
		{ROI: roiOf(square(34.2, 31.3, 34.8, 31.9))},
	} {
		j := job(t, rec, r)
		est, err := raster.New(raster.Options{}).Estimate(context.Background(), j)
		require.NoError(t, err)
		_, arts := exportTo(t, j)
		var total int64
		for _, a := range arts {
			total += a.Size
		}
		assert.InEpsilon(t, float64(total), float64(est.Size), 0.25, "estimate %d, real %d", est.Size, total)
		assert.Positive(t, est.Time)
	}
}

func TestStopLeavesNothing(t *testing.T) {
	rec := fixture(t)
	j := job(t, rec, exporttask.CreateRequest{})
	dir := t.TempDir()
	out := testout.New(dir)
	stop := errors.New("task aborted")
	out.StopWith(stop)
	_, err := raster.New(raster.Options{TempDir: t.TempDir()}).Export(context.Background(), j, out)
	require.ErrorIs(t, err, stop)
	assert.Empty(t, dirEntries(t, dir))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = raster.New(raster.Options{}).Export(ctx, j, testout.New(dir))
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, dirEntries(t, dir))
}

func TestBrokenSourceIsPermanent(t *testing.T) {
	good := fixture(t)
	cases := []struct {
		name  string
		spoil func(dir string) error
	}{
		{"missing", func(dir string) error { return os.Remove(filepath.Join(dir, raster.SourceName)) }},
		{"not SQLite", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, raster.SourceName), bytes.Repeat([]byte("not a database "), 500), 0o644)
		}},
		{"a directory", func(dir string) error {
			p := filepath.Join(dir, raster.SourceName)
			return errors.Join(os.Remove(p), os.Mkdir(p, 0o755))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := good
			rec.Location = t.TempDir()
			b, err := os.ReadFile(filepath.Join(good.Location, raster.SourceName))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(rec.Location, raster.SourceName), b, 0o644))
			require.NoError(t, c.spoil(rec.Location))

			dir := t.TempDir()
			_, err = raster.New(raster.Options{}).Export(context.Background(), job(t, rec, exporttask.CreateRequest{}), testout.New(dir))
			require.Error(t, err)
			var pe *export.PermanentError
			require.ErrorAs(t, err, &pe)
			assert.Contains(t, pe.Reason, recordID)
			assert.Empty(t, dirEntries(t, dir))
		})
	}

	// A record claiming levels its source lacks.
	rec := good
	rec.MaxZoom = fixtureMax + 2
	_, err := raster.New(raster.Options{}).Export(context.Background(), job(t, rec, exporttask.CreateRequest{}), testout.New(t.TempDir()))
	assert.True(t, export.IsPermanent(err))
	assert.ErrorContains(t, err, "no level")
}

// failingOutput refuses to create one file.
type failingOutput struct {
	*testout.Dir
	refuse string
}

func (o failingOutput) Create(ctx context.Context, name string) (artifact.Writer, error) {
	if name == o.refuse {
		return nil, errors.New("disk full")
	}
	return o.Dir.Create(ctx, name)
}

func TestFailedWriteLeavesNothing(t *testing.T) {
	rec := fixture(t)
	dir := t.TempDir()
	out := failingOutput{Dir: testout.New(dir), refuse: raster.MetadataName}
	_, err := raster.New(raster.Options{}).Export(context.Background(), job(t, rec, exporttask.CreateRequest{}), out)
	require.ErrorContains(t, err, "disk full")
	assert.False(t, export.IsPermanent(err), "a write failure may pass: the task is retried")
	assert.Empty(t, dirEntries(t, dir), "the files written before were aborted")
}
