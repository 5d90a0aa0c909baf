package server_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// leak matches what an API client must never read: an absolute server
// path (one of two segments or more; a JSON pointer such as /ROI is
// fine), a Go type or package name, fmt's %! verbs.
var leak = regexp.MustCompile(`(^|[\s"'(=])/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]|\*?\b(fs|os|json|dem|raster|tiles3d|geotiff|exec|syscall|io)\.[A-Z]|\bstrconv\.|%!|\bfor type\b`)

// TestFailureTextsLeakNothing breaks registered sources in the ways they
// break in real catalogs (removed, rewritten under the same size and
// time, truncated, a content file gone or garbled) and reads every text
// the API gives back about them: the problem detail and field messages
// of a refused create, the errorReason of a FAILED task. None may hold an
// absolute server path or Go's vocabulary.
func TestFailureTextsLeakNothing(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	t.Chdir(t.TempDir())
	srcDir := t.TempDir()
	asc := filepath.Join(srcDir, "elevation.asc")
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)

	dem := func(t *testing.T, name string) (catalog.Record, string) {
		tif := filepath.Join(srcDir, name)
		gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Int16",
			"-co", "TILED=YES", "-co", "COMPRESS=DEFLATE", asc, tif)
		return addRecord(t, "-domain", "DEM", tif), tif
	}
	model := func(t *testing.T, name string) (catalog.Record, string) {
		dir := filepath.Join(srcDir, name)
		require.NoError(t, os.Mkdir(dir, 0o755))
		require.NoError(t, tiles3d.WriteDemoSource(dir, catalog.Record{ID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
			Domain:    exporttask.Domain3D,
			Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
			MinZoom:   7, MaxZoom: 8}))
		tileset := filepath.Join(dir, tiles3d.SourceDir)
		return addRecord(t, "-domain", "3D", tileset), tileset
	}
	// sameStamp rewrites path with b, keeping its size and time, so that
	// the change is found only by reading.
	sameStamp := func(t *testing.T, path string, b []byte) {
		st, err := os.Stat(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b, 0o644))
		require.NoError(t, os.Chtimes(path, st.ModTime(), st.ModTime()))
	}
	garbage := func(n int64) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + 3)
		}
		return b
	}
	cases := []struct {
		name   string
		break_ func(t *testing.T) catalog.Record
	}{
		{"DEM removed", func(t *testing.T) catalog.Record {
			rec, tif := dem(t, "removed.tif")
			require.NoError(t, os.Remove(tif))
			return rec
		}},
		{"DEM rewritten with garbage", func(t *testing.T) catalog.Record {
			rec, tif := dem(t, "garbage.tif")
			st, err := os.Stat(tif)
			require.NoError(t, err)
			b, err := os.ReadFile(tif)
			require.NoError(t, err)
			g := garbage(st.Size())
			copy(g, b[:16]) // the TIFF header stays: the directory and tiles are garbage
			sameStamp(t, tif, g)
			return rec
		}},
		{"DEM grown", func(t *testing.T) catalog.Record {
			rec, tif := dem(t, "grown.tif")
			f, err := os.OpenFile(tif, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.Write([]byte("more"))
			require.NoError(t, err)
			require.NoError(t, f.Close())
			return rec
		}},
		{"3D tileset.json garbled", func(t *testing.T) catalog.Record {
			rec, dir := model(t, "garbled")
			p := filepath.Join(dir, "tileset.json")
			st, err := os.Stat(p)
			require.NoError(t, err)
			sameStamp(t, p, garbage(st.Size()))
			return rec
		}},
		{"3D content removed", func(t *testing.T) catalog.Record {
			rec, dir := model(t, "nocontent")
			var removed bool
			require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && filepath.Base(p) != "tileset.json" && !removed {
					removed = true
					return os.Remove(p)
				}
				return err
			}))
			require.True(t, removed)
			return rec
		}},
	}

	s := startExampleServer(t)
	roi := roiBox(34.3, 31.2, 34.7, 31.6)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := c.break_(t)
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			task, err := s.client.Create(ctx, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi,
				ArtifactCRS: exporttask.CRS4326, Webhook: []exporttask.Webhook{{URL: s.sink, Events: []exporttask.Event{exporttask.EventCompleted}}}})
			var texts []string
			if err != nil {
				var p *exporttask.Problem
				require.True(t, errors.As(err, &p), "%v", err)
				texts = append(texts, p.Detail, p.Message)
				for _, fe := range p.Errors {
					texts = append(texts, fe.Message)
				}
			} else {
				done, err := s.client.Wait(ctx, task.ID, 20*time.Millisecond)
				require.NoError(t, err)
				require.Equal(t, exporttask.StatusFailed, done.Status)
				texts = append(texts, done.ErrorReason)
			}
			for _, text := range texts {
				assert.NotRegexp(t, leak, text)
				assert.NotContains(t, text, srcDir)
				assert.NotContains(t, text, os.TempDir()+"/")
			}
			t.Logf("%q", texts)
		})
	}
}
