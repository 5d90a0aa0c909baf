package dem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/stactest"
	"github.com/openapi-viewer/viewer/exporttask/internal/terrain"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

const res = 1.0 / 1200

func TestExportTriangleROI(t *testing.T) {
	rec := demoRecord(t, res)
	j := job(t, rec, jobtest.Triangle())
	e := New(Options{})
	est, err := e.Estimate(context.Background(), j)
	require.NoError(t, err)

	dir := t.TempDir()
	out := testout.New(dir)
	arts, err := e.Export(context.Background(), j, out)
	require.NoError(t, err)
	require.Len(t, arts, 3)
	assert.Equal(t, []exporttask.ArtifactType{exporttask.ArtifactModel, exporttask.ArtifactROI, exporttask.ArtifactMetadata},
		[]exporttask.ArtifactType{arts[0].Type, arts[1].Type, arts[2].Type})
	assert.Equal(t, demoID+".tif", arts[0].Name)
	checkDigests(t, dir, arts)
	assert.ElementsMatch(t, []string{arts[0].Name, arts[1].Name, arts[2].Name}, files(t, dir), "nothing else in the output")

	var total int64
	for _, a := range arts {
		total += a.Size
	}
	assert.InEpsilon(t, total, est.Size, 0.5, "estimate %d, real %d", est.Size, total)

	// Progress: rows, ending at all of them, never going back.
	reps := out.Reports()
	require.NotEmpty(t, reps)
	last := reps[len(reps)-1]
	assert.Equal(t, last[0], last[1])
	assert.EqualValues(t, 300, last[1], "0.25° of latitude at 1/1200°")
	for i := 1; i < len(reps); i++ {
		assert.GreaterOrEqual(t, reps[i][0], reps[i-1][0])
	}

	// GDAL reads the GeoTIFF.
	tif := filepath.Join(dir, arts[0].Name)
	d := gdaltest.Info(t, tif, "-stats")
	assert.Equal(t, "GTiff", d.DriverShortName)
	assert.Contains(t, gdaltest.Run(t, gdaltest.Require(t, "gdalinfo"), tif), "LAYOUT=COG")
	assert.Contains(t, d.CoordinateSystem.WKT, `ID["EPSG",4326]`)
	assert.Equal(t, []int{360, 300}, d.Size, "0.3° × 0.25° at 1/1200°")
	assert.InDeltaSlice(t, []float64{34.2, 31.45}, d.CornerCoordinates.UpperLeft, res)
	assert.InDeltaSlice(t, []float64{34.5, 31.2}, d.CornerCoordinates.LowerRight, res)
	require.Len(t, d.Bands, 1)
	b := d.Bands[0]
	assert.Equal(t, "Float32", b.Type)
	require.NotNil(t, b.NoDataValue)
	assert.Equal(t, -32768.0, *b.NoDataValue)
	require.NotNil(t, b.Minimum)
	require.NotNil(t, b.Maximum)
	assert.Greater(t, *b.Minimum, 0.0)
	assert.Less(t, *b.Maximum, 1500.0)
	assert.Greater(t, *b.Maximum, 500.0, "the triangle holds the 820 m hill at 34.25, 31.30")

	// Pixel values: the terrain inside the triangle, NoData outside.
	loc := gdaltest.Require(t, "gdallocationinfo")
	at := func(lon, lat float64) float64 {
		s := gdaltest.Run(t, loc, "-valonly", "-geoloc", tif, fmt.Sprint(lon), fmt.Sprint(lat))
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		require.NoError(t, err, s)
		return v
	}
	// The centre of the pixel holding (34.25, 31.30).
	lon, lat := 34.2+(math.Floor(0.05/res)+0.5)*res, 31.45-(math.Floor(0.15/res)+0.5)*res
	assert.InDelta(t, terrain.Elevation(lon, lat), at(lon, lat), 0.01)
	assert.Equal(t, -32768.0, at(34.45, 31.4), "beyond the hypotenuse")

	// METADATA and ROI.
	raw, err := os.ReadFile(filepath.Join(dir, arts[2].Name))
	require.NoError(t, err)
	meta := stactest.Check(t, raw, arts[:2])
	assert.Equal(t, demoID, meta.Property(t, "recordID"))
	assert.Equal(t, "DEM", meta.Property(t, "domain"))
	assert.Equal(t, []float64{34.2, 31.2, 34.5, 31.45}, meta.BBox, "the triangle's box")
	assert.JSONEq(t, `{"type":"Polygon","coordinates":[[[34.2,31.2],[34.5,31.2],[34.2,31.45],[34.2,31.2]]]}`,
		string(meta.Geometry), "the triangle, inside the footprint")
	assert.EqualValues(t, 360, meta.Property(t, "width"))
	assert.EqualValues(t, 300, meta.Property(t, "height"))
	assert.InDelta(t, res, meta.Property(t, "resolution"), 1e-15)
	assert.Equal(t, "Float32", meta.Property(t, "sampleType"), "the demo source's")
	assert.EqualValues(t, -32768, meta.Property(t, "noData"))
	assert.InDelta(t, float64(360*300)/2, meta.Property(t, "dataPixels"), 360*2, "half the box is in the triangle")
	model := meta.Assets[arts[0].Name]
	assert.Equal(t, []string{"data"}, model.Roles)
	assert.Equal(t, []int{300, 360}, model.ProjShape)
	gb, ok := meta.Property(t, "gridBBox").([]any)
	require.True(t, ok)
	require.Len(t, gb, 4)
	assert.Equal(t, []float64{res, 0, gb[0].(float64), 0, -res, gb[3].(float64)}, model.ProjTransform)
	assert.Equal(t, []string{"metadata"}, meta.Assets[arts[1].Name].Roles, "the ROI")
	var roi exporttask.FeatureCollection
	readJSON(t, filepath.Join(dir, arts[1].Name), &roi)
	require.Len(t, roi.Features, 1)
	assert.Equal(t, jobtest.Triangle().Features[0].Geometry.Polygon, roi.Features[0].Geometry.Polygon)
}

func TestExportWithoutROIIsTheFootprint(t *testing.T) {
	rec := demoRecord(t, 1.0/240)
	j := job(t, rec, nil)
	dir := t.TempDir()
	arts, err := New(Options{}).Export(context.Background(), j, testout.New(dir))
	require.NoError(t, err)
	d := gdaltest.Info(t, filepath.Join(dir, arts[0].Name))
	assert.Equal(t, []int{240, 240}, d.Size)
	assert.InDeltaSlice(t, []float64{34, 32}, d.CornerCoordinates.UpperLeft, 1e-9)
	assert.InDeltaSlice(t, []float64{35, 31}, d.CornerCoordinates.LowerRight, 1e-9)
	var roi exporttask.FeatureCollection
	readJSON(t, filepath.Join(dir, arts[1].Name), &roi)
	require.Len(t, roi.Features, 1)
	assert.Equal(t, rec.Footprint.Polygon, roi.Features[0].Geometry.Polygon)
}

func TestBadSourceIsPermanentAndLeavesNothing(t *testing.T) {
	cases := map[string]func(rec *catalog.Record){
		"missing": func(rec *catalog.Record) { os.Remove(filepath.Join(rec.Location, DemoFile)) },
		"truncated": func(rec *catalog.Record) {
			p := filepath.Join(rec.Location, DemoFile)
			require.NoError(t, os.Truncate(p, 1000))
			rec.Source.Size = 1000 // as if registered truncated
			st, err := os.Stat(p)
			require.NoError(t, err)
			rec.Source.ModTime = st.ModTime()
		},
		"changed": func(rec *catalog.Record) {
			p := filepath.Join(rec.Location, DemoFile)
			require.NoError(t, os.Chtimes(p, time.Now(), rec.Source.ModTime.Add(time.Second)))
		},
		"no source": func(rec *catalog.Record) { rec.Source = nil },
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			rec := demoRecord(t, 1.0/120)
			spoil(&rec)
			j := job(t, rec, jobtest.Triangle())
			_, err := New(Options{}).Estimate(context.Background(), j)
			assert.True(t, export.IsPermanent(err), "estimate: %v", err)
			dir := t.TempDir()
			_, err = New(Options{}).Export(context.Background(), j, testout.New(dir))
			require.Error(t, err)
			assert.True(t, export.IsPermanent(err), "%v", err)
			if name == "changed" {
				assert.ErrorContains(t, err, "changed after it was registered")
			}
			assert.Empty(t, files(t, dir))
		})
	}
}

func TestAbortLeavesNothing(t *testing.T) {
	rec := demoRecord(t, 1.0/240)
	stop := errors.New("task aborted")
	for _, after := range []int{0, 5} { // before the first row, mid-GeoTIFF
		dir := t.TempDir()
		_, err := New(Options{}).Export(context.Background(), job(t, rec, nil), jobtest.StopAfter(testout.New(dir), after, stop))
		assert.ErrorIs(t, err, stop)
		assert.Empty(t, files(t, dir))
	}
	dir := t.TempDir()

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(Options{}).Export(ctx, job(t, rec, nil), testout.New(dir))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, files(t, dir))
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v), path)
}

func TestROIBeyondTheFootprintIsCut(t *testing.T) {
	rec := demoRecord(t, 1.0/120)
	roi := &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type:     exporttask.TypeFeature,
		Geometry: exporttask.NewPolygon([]exporttask.Position{{34.8, 31.8}, {35.3, 31.8}, {35.3, 32.3}, {34.8, 32.3}, {34.8, 31.8}}),
	}}}
	dir := t.TempDir()
	arts, err := New(Options{}).Export(context.Background(), job(t, rec, roi), testout.New(dir))
	require.NoError(t, err)
	d := gdaltest.Info(t, filepath.Join(dir, arts[0].Name))
	assert.Equal(t, []int{24, 24}, d.Size, "0.2° × 0.2° at 1/120°: the part inside the footprint")
	assert.InDeltaSlice(t, []float64{34.8, 32}, d.CornerCoordinates.UpperLeft, 1e-9)
	assert.InDeltaSlice(t, []float64{35, 31.8}, d.CornerCoordinates.LowerRight, 1e-9)
}

func TestWriteDemoSourceRejectsBadRecords(t *testing.T) {
	dir := t.TempDir()
	for name, rec := range map[string]catalog.Record{
		"no resolution": {ID: "x", Footprint: jobtest.DemoFootprint()},
		"no footprint":  {ID: "x", Resolution: 0.01},
	} {
		t.Run(name, func(t *testing.T) {
			err := WriteDemoSource(dir, rec)
			assert.ErrorContains(t, err, "dem: record x")
			assert.Empty(t, files(t, dir))
		})
	}
}
