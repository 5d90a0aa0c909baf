package tiles3d

import (
	"archive/zip"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/terrain"
)

const demoID = "c0ffee00-3d3d-4d3d-8d3d-0123456789ab"

// demoRecord returns the demo 3D record (levels 7 to 10 over lon 34–35,
// lat 31–32) with its tileset written into a temporary directory.
func demoRecord(t testing.TB) catalog.Record {
	t.Helper()
	rec := catalog.Record{
		ID: demoID, Domain: exporttask.Domain3D, Title: "Demo 3D",
		Footprint: jobtest.DemoFootprint(),
		MinZoom:   7, MaxZoom: 10,
		Location: t.TempDir(),
	}
	require.NoError(t, WriteDemoSource(rec.Location, rec))
	return rec
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

func job(t testing.TB, rec catalog.Record, roi *exporttask.FeatureCollection) export.Job {
	return jobtest.Job(t, rec, roi)
}

func files(t testing.TB, dir string) []string { return jobtest.Files(t, dir) }
