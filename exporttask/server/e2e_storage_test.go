package server_test

import (
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// circleROI is a region of interest of one ring of n positions around
// (lon, lat), written with every digit a float64 has: about 40 bytes a
// position, as a ROI traced by hand or simplified from a survey is.
func circleROI(lon, lat float64, n int) *exporttask.FeatureCollection {
	ring := make([]exporttask.Position, 0, n+1)
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		ring = append(ring, exporttask.Position{lon + 0.004*math.Cos(a) + 1e-9*float64(i%7), lat + 0.004*math.Sin(a)})
	}
	ring = append(ring, ring[0])
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature, Properties: map[string]any{}, Geometry: exporttask.NewPolygon(ring)}}}
}

// fileSize is the size of the file at path, 0 when there is none.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	require.NoError(t, err)
	return fi.Size()
}

// TestStorageStaysBoundedByTheQuota: a customer with a quota creates 400
// tasks with ROIs of about 230 kB, aborting every second one, then 100
// more;
// the exports of the others complete and expire at once, and final tasks
// are removed a moment after. The quota counts every stored task's document, so what
// the database holds is bounded by the quota whatever the mix: the SQLite
// file never exceeds twice the quota plus 2 MiB (the quota's worth of
// documents stored, at most a quota's worth of pages freed since the last
// sweep gave them back, and the schema and indexes), it comes back under
// 2 MiB once the tasks are removed, and it does not grow from one round
// to the next.
func TestStorageStaysBoundedByTheQuota(t *testing.T) {
	if testing.Short() {
		t.Skip("sends about 120 MB through the server")
	}
	const (
		positions = 6000
		slack     = 2 << 20
	)
	creates := []int{400, 100} // per round
	sim := simulate.New(simulate.Config{Duration: time.Millisecond, Steps: 1})
	probe := exporttask.CreateRequest{CatalogRecordID: testkit.SampleCatalogID(0), Domain: exporttask.DomainRaster,
		ArtifactCRS: exporttask.CRS4326, ROI: circleROI(34.81, 31.91, positions)}
	est, err := sim.Estimate(t.Context(), probe)
	require.NoError(t, err)
	roiBytes := len(mustJSON(t, probe.ROI))
	require.Greater(t, roiBytes, 200_000, "a ROI of realistic size")
	// Room for one running task and the document of one final task:
	// creates are refused now and then, while exports run and until
	// final tasks are removed.
	quota := est.Size + 2*(int64(roiBytes)+4096)
	path := filepath.Join(t.TempDir(), "exporttask.db")
	st, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(sink.Close)
	hooks := []exporttask.Webhook{{URL: sink.URL + "/hook", Events: []exporttask.Event{exporttask.EventCompleted, exporttask.EventAborted}}}
	srv := exporttasktest.NewServer(t, exporttasktest.WithStore(st), exporttasktest.WithQuota(quota),
		exporttasktest.WithWebhookAllow(netip.MustParsePrefix("127.0.0.0/8")),
		exporttasktest.WithExporter(sim),
		exporttasktest.WithRetention(time.Millisecond),
		exporttasktest.WithRunnerConfig(func(c *worker.RunnerConfig) { c.FinalRetention = time.Millisecond }))
	ctx := t.Context()

	var after []int64
	for round, n := range creates {
		var peak int64
		created, refused := 0, 0
		for i := range n {
			id := 1 + round*creates[0] + i
			req := exporttask.CreateRequest{CatalogRecordID: testkit.SampleCatalogID(id), Domain: exporttask.DomainRaster,
				ArtifactCRS: exporttask.CRS4326, ROI: circleROI(34.81, 31.91, positions), Webhook: hooks}
			task, err := srv.Client.Create(ctx, req)
			var p *exporttask.Problem
			if errors.As(err, &p) && p.Status == exporttask.StatusQuotaExceeded {
				refused++
				continue
			}
			require.NoError(t, err, "create %d", id)
			created++
			if i%2 == 1 {
				// A task already over is dismissed, one already removed is
				// not found.
				_, err := srv.Client.Abort(ctx, task.ID)
				if !errors.Is(err, client.ErrDismissed) && !(errors.As(err, &p) && p.Status == http.StatusNotFound) {
					require.NoError(t, err)
				}
			}
			peak = max(peak, fileSize(t, path))
		}
		assert.LessOrEqual(t, peak, int64(2*quota+slack), "round %d: the file stays within twice the quota", round)

		// Every task ends (completed ones expire at once) and is removed by
		// the sweeper.
		require.Eventually(t, func() bool {
			tasks, _, err := srv.Client.List(ctx, client.ListOptions{Limit: 10})
			return err == nil && len(tasks) == 0
		}, time.Minute, 10*time.Millisecond, "the sweeper removes every final task")
		// A sweep of our own, so that its giving back of free pages is over.
		_, err := st.Purge(ctx, time.Now(), 100)
		require.NoError(t, err)
		size := fileSize(t, path)
		wal := fileSize(t, path+"-wal")
		after = append(after, size)
		t.Logf("round %d: %d creates answered 201, %d answered 509; ROI %d bytes, estimate %d, quota %d; file peak %d bytes, after the sweep %d bytes (WAL %d)",
			round, created, refused, roiBytes, est.Size, quota, peak, size, wal)
		assert.Positive(t, created)
		assert.Less(t, size, int64(slack), "round %d: the removed tasks' pages are given back", round)
		assert.LessOrEqual(t, wal, int64(2*quota+slack), "round %d: the WAL stays bounded", round)
	}
	// What a passive checkpoint leaves in the WAL for a while: about one
	// task's pages.
	assert.LessOrEqual(t, after[len(after)-1], after[0]+int64(roiBytes)+64<<10, "no growth from one round to the next")
}

// TestExpiredTaskIsGoneOnceRemoved: an EXPIRED task's downloads answer 410
// while the task is kept; once it is removed after the final retention,
// the task and its downloads answer 404 like an unknown id.
func TestExpiredTaskIsGoneOnceRemoved(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond), exporttasktest.WithRetention(time.Second))
	done := h.completedTask(t, 1)
	path := h.pathOf(t, done.Artifacts[0])
	require.Eventually(t, func() bool {
		task, err := h.client.Get(t.Context(), done.ID)
		return err == nil && task.Status == exporttask.StatusExpired
	}, 20*time.Second, 10*time.Millisecond, "the task expires")
	resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
	assert.Equal(t, http.StatusGone, resp.StatusCode, "%s", body)

	// The sweep after the final retention (7 days by default).
	ids, err := h.Store.Purge(t.Context(), time.Now().Add(worker.DefaultFinalRetention), 100)
	require.NoError(t, err)
	require.Equal(t, []int64{done.ID}, ids)
	h.assertGone(t, done.ID)
	resp, body = h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
	assertProblem(t, resp, body, http.StatusNotFound, typeBlank)
}
