package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// TestROIsOnTheEdge sends regions that meet the demo footprint (lon 34–35,
// lat 31–32) only along an edge, at a corner, by a sliver, or by less than
// a pixel, to each domain of the example server. Each create is a 201 whose
// task completes, or a 400 naming /ROI; never a 500.
func TestROIsOnTheEdge(t *testing.T) {
	s := startDemoServer(t, testkit.NewSpecChecker(t))
	box := func(w, s, e, n float64) string {
		return fmt.Sprintf(`[[[%v,%v],[%v,%v],[%v,%v],[%v,%v],[%v,%v]]]`, w, s, e, s, e, n, w, n, w, s)
	}
	rois := map[string]string{
		"along the east edge":           box(35, 31.2, 35.5, 31.4),
		"at the north-west corner":      box(33.5, 32, 34, 32.5),
		"1e-12 inside the east edge":    box(35-1e-12, 31.2, 35.5, 31.4),
		"1e-12 outside the east edge":   box(35+1e-12, 31.2, 35.5, 31.4),
		"a sliver along the north edge": box(34.2, 32-1e-9, 34.4, 32.5),
		"smaller than a pixel, inside":  box(34.5, 31.5, 34.5+1e-6, 31.5+1e-6),
		"smaller than a pixel, astride": box(35-1e-6, 31.2, 35.1, 31.2+1e-6),
	}
	records := map[exporttask.Domain]string{
		exporttask.DomainRaster: demo.RasterID, exporttask.DomainDEM: demo.DEMID, exporttask.Domain3D: demo.Tiles3DID,
	}
	c, err := client.New(s.url, exReadKey, client.WithHTTPClient(s.hc))
	require.NoError(t, err)
	for domain, id := range records {
		for name, coords := range rois {
			body := `{"catalogRecordID":"` + id + `","domain":"` + string(domain) + `","artifactCRS":"4326",` +
				`"ROI":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},` +
				`"geometry":{"type":"Polygon","coordinates":` + coords + `}}]},` +
				`"webhook":[{"url":"https://hooks.example.org/exports","events":["TASK_COMPLETED"]}]}`
			status, b := s.create(t, []byte(body))
			switch status {
			case http.StatusCreated:
				var task exporttask.Task
				require.NoError(t, json.Unmarshal(b, &task))
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				done, err := c.Wait(ctx, task.ID, 20*time.Millisecond)
				cancel()
				require.NoError(t, err)
				assert.Equal(t, exporttask.StatusCompleted, done.Status, "%s %s: %s", domain, name, done.ErrorReason)
			case http.StatusBadRequest:
				var p exporttask.Problem
				require.NoError(t, json.Unmarshal(b, &p))
				if assert.NotEmpty(t, p.Errors, "%s %s", domain, name) {
					assert.Equal(t, "/ROI", p.Errors[0].Pointer, "%s %s: %s", domain, name, p.Detail)
				}
			default:
				t.Errorf("%s %s: status %d: %s", domain, name, status, b)
			}
		}
	}
}
