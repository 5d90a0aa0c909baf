package server_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// A DEM in UTM registered with "catalog add" is exported over HTTP warped
// to EPSG:4326, as gdalwarp warps it; a bad resampling parameter is a 400
// naming it.
func TestWarpedDEMOverHTTP(t *testing.T) {
	warp := gdaltest.Require(t, "gdalwarp")
	translate := gdaltest.Require(t, "gdal_translate")
	t.Chdir(t.TempDir())
	srcDir := t.TempDir()
	asc := filepath.Join(srcDir, "elevation.asc")
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	utm := filepath.Join(srcDir, "utm.tif")
	gdaltest.Run(t, warp, "-q", "-s_srs", "EPSG:4326", "-t_srs", "EPSG:32636", "-r", "bilinear", "-ot", "Int16",
		"-dstnodata", "-32768", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE", asc, utm)
	rec := addRecord(t, "-domain", "DEM", utm)
	require.NotNil(t, rec.Source)

	s := startExampleServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	req := exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roiBox(34.2, 31.2, 34.8, 31.8),
		ArtifactCRS: exporttask.CRS4326, Webhook: []exporttask.Webhook{{URL: s.sink, Events: []exporttask.Event{exporttask.EventCompleted}}},
		Parameters: map[string]any{"resampling": "cubic"}}
	_, err := s.client.Create(ctx, req)
	var p *exporttask.Problem
	require.True(t, errors.As(err, &p), "%v", err)
	assert.Equal(t, http.StatusBadRequest, p.Status)
	require.Len(t, p.Errors, 1)
	assert.Equal(t, "/parameters/resampling", p.Errors[0].Pointer)

	req.Parameters = map[string]any{"resampling": "nearest"}
	task, err := s.client.Create(ctx, req)
	require.NoError(t, err)
	done, err := s.client.Wait(ctx, task.ID, 20*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, exporttask.StatusCompleted, done.Status, done.ErrorReason)
	var model string
	for _, a := range done.Artifacts {
		if a.Type == exporttask.ArtifactModel {
			model = a.URL
		}
	}
	require.NotEmpty(t, model)
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, model, nil)
	require.NoError(t, err)
	r.Header.Set("X-Api-Key", e2eKey)
	resp, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	ours := filepath.Join(t.TempDir(), "ours.tif")
	f, err := os.Create(ours)
	require.NoError(t, err)
	_, err = f.ReadFrom(resp.Body)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	// gdalwarp over the export's own grid gives the same samples.
	info := gdaltest.Info(t, ours)
	assert.Contains(t, info.CoordinateSystem.WKT, `ID["EPSG",4326]`)
	gt, size := info.GeoTransform, info.Size
	ff := func(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
	ref := filepath.Join(t.TempDir(), "ref.tif")
	gdaltest.Run(t, warp, "-q", "-t_srs", "EPSG:4326", "-te", ff(gt[0]), ff(gt[3]+float64(size[1])*gt[5]),
		ff(gt[0]+float64(size[0])*gt[1]), ff(gt[3]), "-tr", ff(gt[1]), ff(-gt[5]), "-r", "near", "-et", "0",
		"-dstnodata", "-32768", "-of", "COG", utm, ref)
	raw := func(path string) []byte {
		out := filepath.Join(t.TempDir(), "raw.img")
		gdaltest.Run(t, translate, "-q", "-of", "ENVI", path, out)
		b, err := os.ReadFile(out)
		require.NoError(t, err)
		return b
	}
	a, b := raw(ours), raw(ref)
	require.Equal(t, len(b), len(a))
	// Pixels whose centre is outside the ROI are nodata in the export;
	// the others are gdalwarp's.
	differ, valid, outside := 0, 0, 0
	for i := 0; i+1 < len(a); i += 2 {
		x, y := (i/2)%size[0], (i/2)/size[0]
		lon, lat := gt[0]+(float64(x)+0.5)*gt[1], gt[3]+(float64(y)+0.5)*gt[5]
		nodata := a[i] == 0x00 && a[i+1] == 0x80 // -32768
		if lon < 34.2 || lon > 34.8 || lat < 31.2 || lat > 31.8 {
			if !nodata {
				outside++
			}
			continue
		}
		if a[i] != b[i] || a[i+1] != b[i+1] {
			differ++
		}
		if !nodata {
			valid++
		}
	}
	assert.Zero(t, outside, "pixels with data outside the ROI")
	assert.Zero(t, differ, "samples that differ from gdalwarp's")
	assert.Greater(t, valid, len(a)/4, "most of the export has data")
}
