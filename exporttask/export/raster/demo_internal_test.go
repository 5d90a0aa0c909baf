package raster

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

func TestDemoTiming(t *testing.T) {
	rec := exporttask.Record{ID: "8b867544-2dab-43a1-be6e-f23ec83c19b4", Domain: exporttask.DomainRaster,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MinZoom:   0, MaxZoom: 11}
	fp, _ := geom.FromGeometry(rec.Footprint)
	dir := t.TempDir()
	start := time.Now()
	n, err := WriteSource(dir, rec, func(z int, col, row int64) ([]byte, error) { return hillshadeTile(fp, z, col, row) })
	require.NoError(t, err)
	st, _ := os.Stat(filepath.Join(dir, SourceName))
	t.Logf("took %v, %d tiles, %d bytes", time.Since(start), n, st.Size())
	os.Link(filepath.Join(dir, SourceName), "/tmp/rdemo.gpkg")
}
