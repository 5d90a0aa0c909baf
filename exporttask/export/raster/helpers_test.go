package raster_test

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/stactest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

const recordID = "8b867544-2dab-43a1-be6e-f23ec83c19b4"

// The fixture's levels: small enough to generate in about a second.
const fixtureMin, fixtureMax = 5, 9

func square(w, s, e, n float64) *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}})
}

func roiOf(g *exporttask.Geometry) *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection,
		Features: []exporttask.Feature{{Type: exporttask.TypeFeature, Geometry: g}}}
}

// fixture writes the demo source at the fixture's levels and returns its
// record.
func fixture(t testing.TB) catalog.Record {
	t.Helper()
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Title: "demo relief",
		Footprint: square(34, 31, 35, 32), MinZoom: fixtureMin, MaxZoom: fixtureMax, Location: t.TempDir()}
	require.NoError(t, raster.WriteDemoSource(rec.Location, rec))
	return rec
}

// job builds the job of exporting rec for r, as export.CatalogExporter does.
func job(t testing.TB, rec catalog.Record, r exporttask.CreateRequest) export.Job {
	t.Helper()
	r.CatalogRecordID, r.Domain = rec.ID, rec.Domain
	j, err := export.NewJob(rec, r)
	require.NoError(t, err)
	return j
}

// exportTo runs an export into a fresh directory.
func exportTo(t testing.TB, j export.Job) (*testout.Dir, []exporttask.Artifact) {
	t.Helper()
	out := testout.New(t.TempDir())
	arts, err := raster.New(raster.Options{TempDir: t.TempDir()}).Export(context.Background(), j, out)
	require.NoError(t, err)
	return out, arts
}

// openGPKG opens a GeoPackage read-only for checks.
func openGPKG(t testing.TB, path string) *sql.DB {
	t.Helper()
	esc := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23") // test names with # make such paths
	db, err := sql.Open("sqlite", "file:"+esc.Replace(path)+"?mode=ro")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// requireTool returns the path of an independent reader (gdalinfo,
// ogrinfo, sqlite3). Without it the test is skipped, or fails when
// VIEWER_TEST_REQUIRE_GDAL=1 (as in CI).
func requireTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("VIEWER_TEST_REQUIRE_GDAL") == "1" {
			t.Fatalf("%s is required (VIEWER_TEST_REQUIRE_GDAL=1) but not found: %v", name, err)
		}
		t.Skipf("%s not found; install gdal-bin and sqlite3 to run this test", name)
	}
	return path
}

// dirEntries lists the names in dir.
func dirEntries(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// artifactPath returns the path of the artifact of type typ.
func artifactPath(t testing.TB, out *testout.Dir, arts []exporttask.Artifact, typ exporttask.ArtifactType) string {
	t.Helper()
	for _, a := range arts {
		if a.Type == typ {
			return filepath.Join(out.Path, a.Name)
		}
	}
	t.Fatalf("no artifact of type %s in %v", typ, arts)
	return ""
}

// readItem reads the export's METADATA and checks it as a STAC Item whose
// assets are the other artifacts.
func readItem(t testing.TB, out *testout.Dir, arts []exporttask.Artifact) stactest.Item {
	t.Helper()
	var others []exporttask.Artifact
	for _, a := range arts {
		if a.Type != exporttask.ArtifactMetadata {
			others = append(others, a)
		}
	}
	raw, err := os.ReadFile(artifactPath(t, out, arts, exporttask.ArtifactMetadata))
	require.NoError(t, err)
	return stactest.Check(t, raw, others)
}
