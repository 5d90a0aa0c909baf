package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
	"github.com/openapi-viewer/viewer/exporttask/internal/stactest"
)

// The records of the small test catalog: the demo landscape with fewer
// levels and a coarser grid, so that it is written in about a second.
const (
	rasterRecord = "8b867544-2dab-43a1-be6e-f23ec83c19b4"
	demRecord    = "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"
	modelRecord  = "c0ffee00-3d3d-4d3d-8d3d-0123456789ab"
)

// realExporter writes the small test catalog and returns the real
// exporters over it. Each record is registered as a team's own data is:
// its domain's WriteDemoSource writes the source, and register.Add
// references it where it is.
func realExporter(t *testing.T) export.Exporter {
	t.Helper()
	root := t.TempDir()
	fp := exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}})
	recs := []struct {
		rec    catalog.Record
		fill   func(string, catalog.Record) error
		source string
	}{
		{catalog.Record{ID: rasterRecord, Domain: exporttask.DomainRaster, Footprint: fp, MinZoom: 5, MaxZoom: 8}, raster.WriteDemoSource, raster.SourceName},
		{catalog.Record{ID: demRecord, Domain: exporttask.DomainDEM, Footprint: fp, Resolution: 1.0 / 240}, dem.WriteDemoSource, dem.DemoFile},
		{catalog.Record{ID: modelRecord, Domain: exporttask.Domain3D, Footprint: fp, MinZoom: 7, MaxZoom: 8}, tiles3d.WriteDemoSource, tiles3d.SourceDir},
	}
	for _, r := range recs {
		dir := t.TempDir()
		require.NoError(t, r.fill(dir, r.rec))
		_, err := register.Add(t.Context(), root, filepath.Join(dir, r.source),
			register.Options{Domain: r.rec.Domain, ID: r.rec.ID, Footprint: r.rec.Footprint})
		require.NoError(t, err)
	}
	cat, err := catalog.Open(root)
	require.NoError(t, err)
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{
		exporttask.DomainRaster: raster.New(raster.Options{TempDir: t.TempDir()}),
		exporttask.DomainDEM:    dem.New(dem.Options{}),
		exporttask.Domain3D:     tiles3d.New(tiles3d.Options{}),
	})
	require.NoError(t, err)
	return x
}

// roiBox is a region of interest of one lon/lat rectangle.
func roiBox(w, s, e, n float64) *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature, Properties: map[string]any{},
		Geometry: exporttask.NewPolygon([]exporttask.Position{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}}),
	}}}
}

// exportRequest asks for an export of record (of domain d) over roi.
func (h *harness) exportRequest(record string, d exporttask.Domain, roi *exporttask.FeatureCollection) exporttask.CreateRequest {
	return exporttask.CreateRequest{CatalogRecordID: record, Domain: d, ROI: roi, ArtifactCRS: exporttask.CRS4326,
		Webhook: []exporttask.Webhook{{URL: h.sink.URL + "/sink", Events: []exporttask.Event{exporttask.EventCompleted}}}}
}

// downloadAll waits for task to complete, downloads every artifact into
// a directory and returns it with the completed task.
func (h *harness) downloadAll(t *testing.T, task exporttask.Task) (string, exporttask.Task) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done, err := h.client.Wait(ctx, task.ID, 20*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, exporttask.StatusCompleted, done.Status, "errorReason: %s", done.ErrorReason)
	require.NotEmpty(t, done.Artifacts)
	for _, a := range done.Artifacts {
		assert.Contains(t, exporttask.ArtifactTypes(task.Domain), a.Type, "%s is of a type of the domain", a.Name)
	}
	dir := t.TempDir()
	for _, a := range done.Artifacts {
		resp, body := h.do(t, request{method: http.MethodGet, path: h.pathOf(t, a), key: h.Key})
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", a.Name, body)
		require.Equal(t, a.Size, int64(len(body)), a.Name)
		require.NoError(t, os.WriteFile(filepath.Join(dir, a.Name), body, 0o644))
	}
	return dir, done
}

// artifactOf returns the name of done's artifact of type typ.
func artifactOf(t *testing.T, done exporttask.Task, typ exporttask.ArtifactType) string {
	t.Helper()
	for _, a := range done.Artifacts {
		if a.Type == typ {
			return a.Name
		}
	}
	t.Fatalf("task %d has no %s artifact", done.ID, typ)
	return ""
}

// checkMetadata checks the downloaded METADATA of done as a STAC Item
// whose assets are the task's other artifacts and whose bbox is box.
func checkMetadata(t *testing.T, dir string, done exporttask.Task, box []float64) {
	t.Helper()
	var others []exporttask.Artifact
	for _, a := range done.Artifacts {
		if a.Type != exporttask.ArtifactMetadata {
			others = append(others, a)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, artifactOf(t, done, exporttask.ArtifactMetadata)))
	require.NoError(t, err)
	item := stactest.Check(t, b, others)
	for i := range box {
		assert.InDelta(t, box[i], item.BBox[i], 1e-9, "bbox[%d]", i)
	}
}

func TestRealExportsOverHTTP(t *testing.T) {
	h := newHarness(t, exporttasktest.WithExporter(realExporter(t)))
	roi := roiBox(34.3, 31.2, 34.7, 31.6)

	t.Run("RASTER", func(t *testing.T) {
		task := h.create(t, h.exportRequest(rasterRecord, exporttask.DomainRaster, roi))
		assert.Positive(t, task.EstimatedSize)
		dir, done := h.downloadAll(t, task)
		info := gdaltest.Info(t, filepath.Join(dir, artifactOf(t, done, exporttask.ArtifactGPKG)))
		assert.Equal(t, "GPKG", info.DriverShortName)
		assert.Contains(t, info.CoordinateSystem.WKT, `ID["EPSG",4326]`)
		tile := 180.0 / 256 // one tile at level 8
		assert.InDelta(t, 34.3, info.CornerCoordinates.UpperLeft[0], tile, "west")
		assert.InDelta(t, 31.6, info.CornerCoordinates.UpperLeft[1], tile, "north")
		assert.InDelta(t, 34.7, info.CornerCoordinates.LowerRight[0], tile, "east")
		assert.InDelta(t, 31.2, info.CornerCoordinates.LowerRight[1], tile, "south")
		checkMetadata(t, dir, done, []float64{34.3, 31.2, 34.7, 31.6})
		png, err := os.ReadFile(filepath.Join(dir, artifactOf(t, done, exporttask.ArtifactThumbnailsSmall)))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")), "the thumbnail is a PNG")
	})
	t.Run("DEM", func(t *testing.T) {
		task := h.create(t, h.exportRequest(demRecord, exporttask.DomainDEM, roi))
		dir, done := h.downloadAll(t, task)
		info := gdaltest.Info(t, filepath.Join(dir, artifactOf(t, done, exporttask.ArtifactModel)))
		assert.Equal(t, "GTiff", info.DriverShortName)
		assert.Contains(t, info.CoordinateSystem.WKT, `ID["EPSG",4326]`)
		px := 1.0 / 240
		assert.InDelta(t, 34.3, info.CornerCoordinates.UpperLeft[0], px, "west")
		assert.InDelta(t, 31.6, info.CornerCoordinates.UpperLeft[1], px, "north")
		assert.InDelta(t, 34.7, info.CornerCoordinates.LowerRight[0], px, "east")
		assert.InDelta(t, 31.2, info.CornerCoordinates.LowerRight[1], px, "south")
		require.NotEmpty(t, info.Bands)
		assert.Equal(t, "Float32", info.Bands[0].Type)
		b, err := os.ReadFile(filepath.Join(dir, artifactOf(t, done, exporttask.ArtifactROI)))
		require.NoError(t, err)
		_, err = exporttask.DecodeCreateRequest(strings.NewReader(`{"catalogRecordID":"` + demRecord +
			`","domain":"DEM","artifactCRS":"4326","webhook":[{"url":"https://example.com/h","events":["TASK_COMPLETED"]}],"ROI":` + string(b) + `}`))
		assert.NoError(t, err, "the ROI artifact is a valid region of interest")
		checkMetadata(t, dir, done, []float64{34.3, 31.2, 34.7, 31.6})
	})
	t.Run("3D", func(t *testing.T) {
		task := h.create(t, h.exportRequest(modelRecord, exporttask.Domain3D, roi))
		dir, done := h.downloadAll(t, task)
		zr, err := zip.OpenReader(filepath.Join(dir, artifactOf(t, done, exporttask.Artifact3DModel)))
		require.NoError(t, err)
		defer zr.Close()
		var tileset struct {
			Asset struct {
				Version string `json:"version"`
			} `json:"asset"`
			Root map[string]any `json:"root"`
		}
		files := map[string]bool{}
		for _, f := range zr.File {
			files[f.Name] = true
			if filepath.Base(f.Name) == "tileset.json" && tileset.Root == nil {
				rc, err := f.Open()
				require.NoError(t, err)
				require.NoError(t, json.NewDecoder(rc).Decode(&tileset))
				rc.Close()
			}
		}
		assert.Equal(t, "1.1", tileset.Asset.Version)
		assert.NotNil(t, tileset.Root)
		assert.Greater(t, len(files), 1, "tileset.json and content")
		checkMetadata(t, dir, done, []float64{34.3, 31.2, 34.7, 31.6})
	})
}

func TestCreateChecksTheCatalog(t *testing.T) {
	h := newHarness(t, exporttasktest.WithExporter(realExporter(t)))
	create := func(req exporttask.CreateRequest) (*http.Response, []byte) {
		return h.do(t, request{method: http.MethodPost, path: "/export-tasks", key: h.Key,
			header: map[string]string{"Content-Type": "application/json"}, body: mustJSON(t, req)})
	}
	t.Run("unknown record", func(t *testing.T) {
		resp, body := create(h.exportRequest("00000000-0000-4000-8000-000000000000", exporttask.DomainRaster, nil))
		p := assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank)
		require.Len(t, p.Errors, 1)
		assert.Equal(t, "/catalogRecordID", p.Errors[0].Pointer)
	})
	t.Run("wrong domain", func(t *testing.T) {
		resp, body := create(h.exportRequest(demRecord, exporttask.DomainRaster, nil))
		p := assertProblem(t, resp, body, http.StatusBadRequest, exporttask.ProblemTypeValidation)
		require.Len(t, p.Errors, 1)
		assert.Equal(t, "/domain", p.Errors[0].Pointer)
		assert.Contains(t, p.Errors[0].Message, "DEM")
	})
	t.Run("ROI outside the footprint", func(t *testing.T) {
		resp, body := create(h.exportRequest(rasterRecord, exporttask.DomainRaster, roiBox(10, 10, 11, 11)))
		p := assertProblem(t, resp, body, http.StatusBadRequest, exporttask.ProblemTypeValidation)
		require.Len(t, p.Errors, 1)
		assert.Equal(t, "/ROI", p.Errors[0].Pointer)
	})
}
