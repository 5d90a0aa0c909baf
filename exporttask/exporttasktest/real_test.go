package exporttasktest_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestRealExportsDownloadACOG is a downstream test as a user of the
// package writes it: a server with the real exporters over the demo
// catalog exports a small region of the DEM record, and the download is
// a Cloud Optimized GeoTIFF named as the example server names it.
func TestRealExportsDownloadACOG(t *testing.T) {
	srv := exporttasktest.NewServer(t, exporttasktest.WithRealExports(""))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	task, err := srv.Client.Create(ctx, exporttask.CreateRequest{
		CatalogRecordID: demo.DEMID,
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		ROI: &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature, Properties: map[string]any{},
			Geometry: exporttask.NewPolygon([]exporttask.Position{{34.5, 31.5}, {34.52, 31.5}, {34.52, 31.52}, {34.5, 31.52}, {34.5, 31.5}}),
		}}},
		Webhook: []exporttask.Webhook{{URL: "https://hooks.example.com/x", Events: []exporttask.Event{exporttask.EventCompleted}}},
	})
	require.NoError(t, err)
	done, err := srv.Client.Wait(ctx, task.ID, 20*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, exporttask.StatusCompleted, done.Status, done.ErrorReason)

	var names []string
	for _, a := range done.Artifacts {
		names = append(names, a.Name+" "+string(a.Type))
	}
	assert.Equal(t, []string{demo.DEMID + ".tif MODEL", "roi.geojson ROI", "metadata.json METADATA"}, names)
	path := filepath.Join(t.TempDir(), "dem.tif")
	require.NoError(t, srv.Client.DownloadFile(ctx, done.Artifacts[0], path))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(b), 64)
	assert.Equal(t, []byte("II*\x00"), b[:4], "a little-endian TIFF")
	assert.True(t, bytes.Contains(b[:512], []byte("LAYOUT=IFDS_BEFORE_DATA")), "the COG layout's ghost header")
}
