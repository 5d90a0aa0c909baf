package simulate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func request(d exporttask.Domain, roi *exporttask.FeatureCollection) exporttask.CreateRequest {
	return exporttask.CreateRequest{CatalogRecordID: "c0ffee00-1111-2222-3333-444455556666", Domain: d, ROI: roi, ArtifactCRS: exporttask.CRS4326}
}

func taskOf(id int64, r exporttask.CreateRequest) exporttask.Task {
	return exporttask.Task{ID: id, CreateRequest: r, Status: exporttask.StatusInProgress}
}

func TestSimulatorEstimateGrowsWithAreaAndDependsOnDomain(t *testing.T) {
	s := New(Config{Duration: 90 * time.Second})
	ctx := context.Background()
	small := polygonROI(box(34.80, 32.00, 34.81, 32.01)) // about 1 km²
	large := polygonROI(box(34, 31, 35, 32))             // about 10,500 km²
	for _, d := range exporttask.Domains() {
		es, err := s.Estimate(ctx, request(d, small))
		require.NoError(t, err)
		el, err := s.Estimate(ctx, request(d, large))
		require.NoError(t, err)
		ew, err := s.Estimate(ctx, request(d, nil))
		require.NoError(t, err)
		assert.Greater(t, el.Size, 1000*es.Size/2, "%s: 10,000 times the area, far larger", d)
		assert.Greater(t, ew.Size, es.Size, "%s: the whole record is larger than 1 km²", d)
		assert.Less(t, ew.Size, el.Size, "%s: the whole record counts as 1,000 km²", d)
		assert.Equal(t, int64(90), es.Time)
	}
	sizes := map[exporttask.Domain]int64{}
	for _, d := range exporttask.Domains() {
		e, err := s.Estimate(ctx, request(d, large))
		require.NoError(t, err)
		sizes[d] = e.Size
	}
	assert.Less(t, sizes[exporttask.DomainDEM], sizes[exporttask.DomainRaster])
	assert.Less(t, sizes[exporttask.DomainRaster], sizes[exporttask.Domain3D])
}

func TestSimulatorEstimateDefaultsAndErrors(t *testing.T) {
	ctx := context.Background()
	e, err := New(Config{}).Estimate(ctx, request(exporttask.DomainRaster, nil))
	require.NoError(t, err)
	assert.Equal(t, int64(30), e.Time, "default duration")
	e, err = New(Config{Duration: time.Millisecond}).Estimate(ctx, request(exporttask.DomainRaster, nil))
	require.NoError(t, err)
	assert.Equal(t, int64(1), e.Time, "rounded up to a second")

	_, err = New(Config{}).Estimate(ctx, request("VECTOR", nil))
	assert.ErrorContains(t, err, "unknown domain")
	_, err = New(Config{}).Estimate(ctx, request(exporttask.DomainDEM,
		&exporttask.FeatureCollection{Features: []exporttask.Feature{{Geometry: &exporttask.Geometry{Type: "LineString"}}}}))
	assert.ErrorContains(t, err, "LineString")
}

func TestSimulatorExportArtifacts(t *testing.T) {
	s := New(Config{Duration: time.Millisecond})
	ctx := context.Background()
	hexDigest := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for _, d := range exporttask.Domains() {
		t.Run(string(d), func(t *testing.T) {
			r := request(d, polygonROI(box(34, 31, 34.5, 31.5)))
			out := testout.New(t.TempDir())
			arts, err := s.Export(ctx, taskOf(42, r), out)
			require.NoError(t, err)
			// The names and types of the real exporters' artifacts.
			want := map[exporttask.Domain][]string{
				exporttask.DomainRaster: {r.CatalogRecordID + ".gpkg GPKG", "thumbnail-small.png THUMBNAILS_SMALL",
					"thumbnail-medium.png THUMBNAILS_MEDIUM", "thumbnail-large.png THUMBNAILS_LARGE", "metadata.json METADATA"},
				exporttask.DomainDEM: {r.CatalogRecordID + ".tif MODEL", "roi.geojson ROI", "metadata.json METADATA"},
				exporttask.Domain3D: {r.CatalogRecordID + ".zip 3D_MODEL", "thumbnail-small.png THUMBNAILS_SMALL",
					"thumbnail-medium.png THUMBNAILS_MEDIUM", "thumbnail-large.png THUMBNAILS_LARGE", "metadata.json METADATA"},
			}[d]
			var got []string
			for _, a := range arts {
				got = append(got, a.Name+" "+string(a.Type))
			}
			assert.Equal(t, want, got)
			names := map[string]bool{}
			for _, a := range arts {
				assert.False(t, names[a.Name], "unique name %s", a.Name)
				names[a.Name] = true
				assert.Empty(t, a.URL, "the server builds download URLs")
				assert.Regexp(t, hexDigest, a.SHA256)
				body, err := os.ReadFile(filepath.Join(out.Path, a.Name))
				require.NoError(t, err, "the file was written")
				assert.Equal(t, int64(len(body)), a.Size)
				sum := sha256.Sum256(body)
				assert.Equal(t, hex.EncodeToString(sum[:]), a.SHA256)
				assert.Contains(t, string(body), "export task 42")
			}
			again, err := s.Export(ctx, taskOf(42, r), testout.New(t.TempDir()))
			require.NoError(t, err)
			assert.Equal(t, arts, again, "deterministic")
			other, err := s.Export(ctx, taskOf(43, r), testout.New(t.TempDir()))
			require.NoError(t, err)
			assert.NotEqual(t, arts[0].SHA256, other[0].SHA256, "content depends on the task")
		})
	}
	arts, err := s.Export(ctx, taskOf(1, request(exporttask.DomainRaster, nil)), testout.New(t.TempDir()))
	require.NoError(t, err)
	assert.Equal(t, "c0ffee00-1111-2222-3333-444455556666.gpkg", arts[0].Name)
}

func TestSimulatorExportNamesAreSafe(t *testing.T) {
	s := New(Config{Duration: time.Millisecond})
	r := request(exporttask.DomainDEM, nil)
	r.CatalogRecordID = "../../etc/pass wd?"
	arts, err := s.Export(context.Background(), taskOf(5, r), testout.New(t.TempDir()))
	require.NoError(t, err)
	assert.Equal(t, ".._.._etc_pass_wd_.tif", arts[0].Name)
	r.CatalogRecordID = ""
	arts, err = s.Export(context.Background(), taskOf(5, r), testout.New(t.TempDir()))
	require.NoError(t, err)
	assert.Equal(t, "export.tif", arts[0].Name)
}

func TestSimulatorExportProgressOverDuration(t *testing.T) {
	s := New(Config{Duration: 80 * time.Millisecond, Steps: 4})
	out := testout.New(t.TempDir())
	start := time.Now()
	_, err := s.Export(context.Background(), taskOf(1, request(exporttask.Domain3D, nil)), out)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 80*time.Millisecond)
	assert.Equal(t, [][2]int64{{1, 4}, {2, 4}, {3, 4}}, out.Reports())
}

func TestSimulatorExportStops(t *testing.T) {
	t.Run("context cancelled", func(t *testing.T) {
		s := New(Config{Duration: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		start := time.Now()
		_, err := s.Export(ctx, taskOf(1, request(exporttask.DomainRaster, nil)), testout.New(t.TempDir()))
		assert.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(start), 5*time.Second)
	})
	t.Run("progress fails", func(t *testing.T) {
		s := New(Config{Duration: 10 * time.Millisecond})
		out := testout.New(t.TempDir())
		out.StopWith(exporttask.ErrLeaseLost)
		_, err := s.Export(context.Background(), taskOf(1, request(exporttask.DomainRaster, nil)), out)
		assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
		assert.Len(t, out.Reports(), 1)
		entries, err := os.ReadDir(out.Path)
		require.NoError(t, err)
		assert.Empty(t, entries, "no file written")
	})
	t.Run("failure injected", func(t *testing.T) {
		boom := errors.New("source imagery unavailable")
		var mu sync.Mutex
		var seen []int
		s := New(Config{Duration: 10 * time.Millisecond, Steps: 4, Fail: func(t exporttask.Task, p int) error {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, p)
			if p == 50 {
				return boom
			}
			return nil
		}})
		out := testout.New(t.TempDir())
		_, err := s.Export(context.Background(), taskOf(1, request(exporttask.DomainRaster, nil)), out)
		assert.ErrorIs(t, err, boom)
		assert.Equal(t, []int{25, 50}, seen)
		assert.Equal(t, [][2]int64{{1, 4}}, out.Reports())
	})
	t.Run("unknown domain", func(t *testing.T) {
		_, err := New(Config{}).Export(context.Background(), taskOf(1, request("X", nil)), testout.New(t.TempDir()))
		assert.ErrorContains(t, err, "unknown domain")
		assert.True(t, export.IsPermanent(err))
	})
}
