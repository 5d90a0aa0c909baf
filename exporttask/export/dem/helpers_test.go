package dem

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

const demoID = "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"

// demoRecord returns the demo DEM record over lon 34–35, lat 31–32 with its
// data written into a temporary directory.
func demoRecord(t testing.TB, res float64) catalog.Record {
	t.Helper()
	rec := catalog.Record{
		ID: demoID, Domain: exporttask.DomainDEM, Title: "Demo DEM",
		Footprint:  jobtest.DemoFootprint(),
		Resolution: res,
		Location:   t.TempDir(),
	}
	require.NoError(t, WriteDemoSource(rec.Location, rec))
	got, err := Inspect(context.Background(), catalog.Source{Path: filepath.Join(rec.Location, DemoFile)})
	require.NoError(t, err)
	rec.Source = got.Source
	return rec
}

// checkDigests checks each artifact's size and SHA-256 against the file.
func checkDigests(t testing.TB, dir string, arts []exporttask.Artifact) {
	t.Helper()
	for _, a := range arts {
		b, err := os.ReadFile(filepath.Join(dir, a.Name))
		require.NoError(t, err)
		sum := sha256.Sum256(b)
		require.Equal(t, hex.EncodeToString(sum[:]), a.SHA256, a.Name)
		require.Equal(t, int64(len(b)), a.Size, a.Name)
	}
}

func job(t testing.TB, rec catalog.Record, roi *exporttask.FeatureCollection) export.Job {
	return jobtest.Job(t, rec, roi)
}

func files(t testing.TB, dir string) []string { return jobtest.Files(t, dir) }
