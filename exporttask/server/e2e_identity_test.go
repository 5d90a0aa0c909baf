package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// TestReplacedSourceIsANewExport: after "catalog add -replace" with other
// data, the same request is a new export made from the new data, not a
// replay of the task made from the old data (the source's version is part
// of the dedup key and of the Idempotency-Key's fingerprint). Before, the
// old COMPLETED task came back, and a repeated Idempotency-Key kept
// replaying it. A key repeated over the same data replays its task.
func TestReplacedSourceIsANewExport(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	t.Chdir(t.TempDir())
	srcDir := t.TempDir()
	asc := filepath.Join(srcDir, "elevation.asc")
	tif := filepath.Join(srcDir, "elevation.tif")
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Int16", asc, tif)
	const id = "5e0b6c1a-7d2f-4b3e-8a91-0c4d2e6f8a17"
	rec := addRecord(t, "-domain", "DEM", "-id", id, tif)

	s := startExampleServer(t)
	roi := roiBox(34.3, 31.2, 34.7, 31.6)
	first, _ := s.export(t, rec, roi)
	require.Equal(t, exporttask.StatusCompleted, first.Status, "errorReason: %s", first.ErrorReason)

	// A key first sent with the same request names first (a duplicate);
	// sent again over the same data, it replays first.
	for range 2 {
		status, header, body := s.createKeyed(t, rec, roi, "order-1")
		require.Equal(t, http.StatusCreated, status, "body: %s", body)
		assert.Equal(t, "true", header.Get(exporttask.ReplayedHeader))
		var task exporttask.Task
		require.NoError(t, json.Unmarshal(body, &task))
		assert.Equal(t, first.ID, task.ID, "the same key, body and data replay the task")
	}

	// Other heights, same file name, same size.
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	b, err := os.ReadFile(asc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(asc, append([]byte{}, replaceHeights(b)...), 0o644))
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Int16", asc, tif)
	rec = addRecord(t, "-domain", "DEM", "-id", id, "-replace", tif)

	// The same key and body over the new data: refused, naming the
	// change, and nothing is created.
	status, _, body := s.createKeyed(t, rec, roi, "order-1")
	require.Equal(t, http.StatusUnprocessableEntity, status, "body: %s", body)
	var p exporttask.Problem
	require.NoError(t, json.Unmarshal(body, &p))
	assert.Equal(t, exporttask.ProblemTypeIdempotencyKeyReused, p.Type)
	assert.Contains(t, p.Detail, `"order-1"`)
	assert.Contains(t, p.Detail, "the catalog record's data has changed since")
	assert.Contains(t, p.Detail, "send a new key")
	tasks, _, err := s.client.List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, tasks, 1, "the refused create stored nothing")

	// Without a key: a new export (the dedup key follows the data).
	again, dir := s.export(t, rec, roi)
	assert.NotEqual(t, first.ID, again.ID, "a new export, not the old one replayed")
	require.Equal(t, exporttask.StatusCompleted, again.Status, "errorReason: %s", again.ErrorReason)
	require.NotEmpty(t, dir)
}

// createKeyed posts the request export sends for rec over roi, with
// Idempotency-Key key, and returns the answer's status, header and body.
func (s *e2eServer) createKeyed(t *testing.T, rec catalog.Record, roi *exporttask.FeatureCollection, key string) (int, http.Header, []byte) {
	t.Helper()
	body, err := json.Marshal(exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi,
		ArtifactCRS: exporttask.CRS4326, Webhook: []exporttask.Webhook{{URL: s.sink, Events: []exporttask.Event{exporttask.EventCompleted}}}})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.url+"/export-tasks", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("X-Api-Key", e2eKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(exporttask.IdempotencyKeyHeader, key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

// replaceHeights turns the grid's "1" digits into "2": other heights,
// the same layout.
func replaceHeights(b []byte) []byte {
	header := 0
	for n := 0; n < 6 && header < len(b); header++ {
		if b[header] == '\n' {
			n++
		}
	}
	for i := header; i < len(b); i++ {
		if b[i] == '1' {
			b[i] = '2'
		}
	}
	return b
}

// TestInfiniteAndNaNNoDataExport: DEMs whose GDAL_NODATA is inf, -inf or
// nan (common GDAL output) register and export, and METADATA writes the
// nodata as the STAC raster extension allows ("inf", "-inf", "nan").
// Before, the export failed, its errorReason naming Go's JSON encoder.
func TestInfiniteAndNaNNoDataExport(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	t.Chdir(t.TempDir())
	srcDir := t.TempDir()
	asc := filepath.Join(srcDir, "elevation.asc")
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	s := startExampleServer(t)
	roi := roiBox(34.3, 31.2, 34.7, 31.6)
	for _, nd := range []string{"inf", "-inf", "nan"} {
		t.Run(nd, func(t *testing.T) {
			tif := filepath.Join(srcDir, "nodata"+nd+".tif")
			gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Float32",
				"-a_nodata", nd, asc, tif)
			rec := addRecord(t, "-domain", "DEM", tif)
			task, dir := s.export(t, rec, roi)
			require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
			var item struct {
				Properties map[string]any `json:"properties"`
			}
			var metadata string
			for _, a := range task.Artifacts {
				if a.Type == exporttask.ArtifactMetadata {
					metadata = filepath.Join(dir, a.Name)
				}
			}
			b, err := os.ReadFile(metadata)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &item))
			assert.Equal(t, nd, item.Properties["exporttask:noData"], "STAC's text for %s", nd)
			// GDAL reads the exported file's nodata as the source's.
			var model string
			for _, a := range task.Artifacts {
				if a.Type == exporttask.ArtifactModel {
					model = filepath.Join(dir, a.Name)
				}
			}
			info := gdaltest.Run(t, gdaltest.Require(t, "gdalinfo"), model)
			assert.Contains(t, info, "NoData Value="+nd+"\n")
		})
	}
}
