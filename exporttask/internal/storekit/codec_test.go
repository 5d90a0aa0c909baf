package storekit_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestMillis(t *testing.T) {
	assert.Equal(t, int64(0), storekit.Millis(time.Time{}))
	at := time.Date(2026, 11, 21, 9, 30, 0, 123_456_789, time.UTC)
	assert.Equal(t, at.UnixMilli(), storekit.Millis(at))
}

func TestLive(t *testing.T) {
	for _, s := range []exporttask.Status{exporttask.StatusPending, exporttask.StatusInProgress,
		exporttask.StatusPaused, exporttask.StatusCompleted} {
		assert.True(t, storekit.Live(s), s)
	}
	for _, s := range []exporttask.Status{exporttask.StatusFailed, exporttask.StatusAborted, exporttask.StatusExpired} {
		assert.False(t, storekit.Live(s), s)
	}
}

func TestEncodeDecodeTask(t *testing.T) {
	p := taskstore.CreateParams{
		Customer: "acme",
		Request: exporttask.CreateRequest{
			CatalogRecordID: "rec-1",
			Domain:          exporttask.DomainDEM,
			ArtifactCRS:     exporttask.CRS4326,
			Webhook: []exporttask.Webhook{
				{URL: "https://a.example.com", Events: []exporttask.Event{exporttask.EventStarted}},
				{URL: "https://a.example.com", Events: []exporttask.Event{exporttask.EventCompleted}},
			},
		},
		EstimatedSize: 10,
		EstimatedTime: 3,
		Now:           time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC),
	}
	task := storekit.NewTask(p)
	assert.Equal(t, exporttask.StatusPending, task.Status)
	require.Len(t, task.Webhook, 1, "webhooks are merged by URL")
	assert.Equal(t, []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}, task.Webhook[0].Events)

	task.ID = 99
	doc, err := storekit.EncodeTask(task)
	require.NoError(t, err)
	assert.NotContains(t, string(doc), "99", "the id column is authoritative")
	assert.Contains(t, string(doc), `"artifacts":[]`)

	got, err := storekit.DecodeTask(7, doc)
	require.NoError(t, err)
	want := task
	want.ID = 7
	want.Artifacts = []exporttask.Artifact{}
	assert.Equal(t, want, got)

	_, err = storekit.DecodeTask(7, []byte(`{`))
	assert.ErrorContains(t, err, "decoding task 7")
}
