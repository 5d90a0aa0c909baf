package dem

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

const demoID = "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"

// demoRecord returns the demo DEM record over lon 34–35, lat 31–32 with its
// data written into a temporary directory.
func demoRecord(t *testing.T, res float64) exporttask.Record {
	t.Helper()
	rec := exporttask.Record{
		ID: demoID, Domain: exporttask.DomainDEM, Title: "Demo DEM",
		Footprint:  exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		Resolution: res,
		Location:   t.TempDir(),
	}
	require.NoError(t, WriteDemoSource(rec.Location, rec))
	return rec
}

// job builds the job the dispatcher would: the ROI (nil for none) meets the
// footprint.
func job(t *testing.T, rec exporttask.Record, roi *exporttask.FeatureCollection) export.Job {
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

// triangle is a ROI of one triangle inside the demo footprint.
func triangle() *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type:     exporttask.TypeFeature,
		Geometry: exporttask.NewPolygon([]exporttask.Position{{34.2, 31.2}, {34.5, 31.2}, {34.2, 31.45}, {34.2, 31.2}}),
	}}}
}

// files lists the directory's entries.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// checkDigests checks each artifact's size and SHA-256 against the file.
func checkDigests(t *testing.T, dir string, arts []exporttask.Artifact) {
	t.Helper()
	for _, a := range arts {
		b, err := os.ReadFile(filepath.Join(dir, a.Name))
		require.NoError(t, err)
		sum := sha256.Sum256(b)
		require.Equal(t, hex.EncodeToString(sum[:]), a.SHA256, a.Name)
		require.Equal(t, int64(len(b)), a.Size, a.Name)
	}
}
