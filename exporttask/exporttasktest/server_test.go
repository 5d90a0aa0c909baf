package exporttasktest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

func TestNewServer(t *testing.T) {
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(hook.Close)
	srv := exporttasktest.NewServer(t, exporttasktest.WithTaskDuration(50*time.Millisecond))
	require.NotEmpty(t, srv.Key)
	require.NotEmpty(t, srv.WebhookSecret)
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, srv.URL)

	ctx := t.Context()
	task, err := srv.Client.Create(ctx, exporttask.CreateRequest{
		CatalogRecordID: "8b867544-2dab-43a1-be6e-f23ec83c19b4",
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		Webhook: []exporttask.Webhook{{URL: hook.URL,
			Events: []exporttask.Event{exporttask.EventCompleted}}},
	})
	require.NoError(t, err)
	done, err := srv.Client.Wait(ctx, task.ID, 10*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusCompleted, done.Status)
	assert.NotEmpty(t, done.Artifacts)

	stored, err := srv.Store.Get(ctx, exporttasktest.Customer, task.ID)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusCompleted, stored.Status)

	// The key is the only way in.
	resp, err := http.Get(srv.URL + "/export-tasks")
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

// TestNewServerStopsCleanly: every server a test starts is gone when it ends.
func TestNewServerStopsCleanly(t *testing.T) {
	var url string
	t.Run("inner", func(t *testing.T) {
		url = exporttasktest.NewServer(t).URL
	})
	_, err := http.Get(url + "/healthz")
	assert.Error(t, err, "the server is closed after the test")
}

// TestRunnerAndDelivererConfig: the options reach the Runner and the
// Deliverer that run beside the server.
func TestRunnerAndDelivererConfig(t *testing.T) {
	agents := make(chan string, 1)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case agents <- r.UserAgent():
		default:
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(hook.Close)
	srv := exporttasktest.NewServer(t,
		exporttasktest.WithRunnerConfig(func(c *worker.RunnerConfig) { c.Retention = time.Hour }),
		exporttasktest.WithDelivererConfig(func(c *webhook.DelivererConfig) { c.UserAgent = "exporttasktest-agent" }))

	ctx := t.Context()
	task, err := srv.Client.Create(ctx, exporttask.CreateRequest{
		CatalogRecordID: "8b867544-2dab-43a1-be6e-f23ec83c19b4",
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		Webhook: []exporttask.Webhook{{URL: hook.URL,
			Events: []exporttask.Event{exporttask.EventCompleted}}},
	})
	require.NoError(t, err)
	done, err := srv.Client.Wait(ctx, task.ID, 10*time.Millisecond)
	require.NoError(t, err)
	require.False(t, done.FinishedAt.IsZero())
	assert.Equal(t, time.Hour, done.ExpiredAt.Sub(done.FinishedAt.Time), "the Runner's Retention")
	select {
	case agent := <-agents:
		assert.Equal(t, "exporttasktest-agent", agent, "the Deliverer's UserAgent")
	case <-time.After(10 * time.Second):
		t.Fatal("no webhook delivery")
	}
}
