package tiles3d

import (
	"archive/zip"
	"io"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/terrain"
)

const demoID = "c0ffee00-3d3d-4d3d-8d3d-0123456789ab"

// demoRecord returns the demo 3D record (levels 7 to 10 over lon 34–35,
// lat 31–32) with its tileset written into a temporary directory.
func demoRecord(t testing.TB) exporttask.Record {
	t.Helper()
	rec := exporttask.Record{
		ID: demoID, Domain: exporttask.Domain3D, Title: "Demo 3D",
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MinZoom:   7, MaxZoom: 10,
		Location: t.TempDir(),
	}
	require.NoError(t, WriteDemoSource(rec.Location, rec))
	return rec
}

// job builds the job the dispatcher would: the ROI (nil for none) meets the
// footprint.
func job(t testing.TB, rec exporttask.Record, roi *exporttask.FeatureCollection) export.Job {
	t.Helper()
	fp, err := geom.FromGeometry(rec.Footprint)
	require.NoError(t, err)
	r, err := geom.FromROI(roi)
	require.NoError(t, err)
	box := fp.BBox()
	if r != nil {
		box = box.Intersect(r.BBox())
	}
	return export.Job{Record: rec, Request: exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi},
		Footprint: fp, ROI: r, Box: box}
}

// triangleROI is a ROI of one triangle inside the demo footprint.
func triangleROI() *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type:     exporttask.TypeFeature,
		Geometry: exporttask.NewPolygon([]exporttask.Position{{34.2, 31.2}, {34.5, 31.2}, {34.2, 31.45}, {34.2, 31.2}}),
	}}}
}

func files(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// readZip returns the zip's entries by name.
func readZip(t testing.TB, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		rc.Close()
		require.NoError(t, err, f.Name)
		out[f.Name] = b
	}
	return out
}

func terrainHeight(lon, lat float64) float64 { return terrain.Elevation(lon, lat) }

func len3(v [3]float64) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }
