package storekit

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

func TestMarshalEventIsThinAndPerReceiver(t *testing.T) {
	a := exporttask.Webhook{URL: "https://a.example/hook?token=secret-a", Events: []exporttask.Event{exporttask.EventCompleted}}
	b := exporttask.Webhook{URL: "https://b.example/hook?token=secret-b", Events: []exporttask.Event{exporttask.EventCompleted, exporttask.EventFailed}}
	task := exporttask.Task{ID: 9, Status: exporttask.StatusCompleted, Progress: 100,
		CreateRequest: exporttask.CreateRequest{CatalogRecordID: "rec", Description: "big", Keywords: map[string]any{"k": "v"},
			Parameters: map[string]any{"p": 1}, Webhook: []exporttask.Webhook{a, b},
			ROI: &exporttask.FeatureCollection{Type: "FeatureCollection", Features: []exporttask.Feature{{Type: "Feature",
				Geometry: exporttask.NewPolygon([]exporttask.Position{{0, 0}, {1, 0}, {1, 1}, {0, 0}})}}}},
		Artifacts: []exporttask.Artifact{{Name: "x.gpkg", Type: "GPKG", URL: "https://dl.example/x.gpkg"}}}
	at := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

	body, err := MarshalEvent(exporttask.EventCompleted, task, b, at)
	require.NoError(t, err)
	assert.JSONEq(t, `{"event":"TASK_COMPLETED","timestamp":"2026-11-21T09:30:00.000Z","data":{
		"id":9,"status":"COMPLETED","progress":100,
		"artifacts":[{"name":"x.gpkg","type":"GPKG","url":"https://dl.example/x.gpkg"}],
		"webhook":{"url":"https://b.example/hook?token=secret-b","events":["TASK_COMPLETED","TASK_FAILED"]},
		"links":[{"rel":"self","href":"/export-tasks/9"}]}}`, string(body))
	assert.NotContains(t, string(body), "secret-a", "another receiver's URL never appears")

	var p exporttask.EventPayload
	require.NoError(t, json.Unmarshal(body, &p))
	assert.Equal(t, b, p.Data.Webhook)
}

func TestSubscriptionsTo(t *testing.T) {
	task := exporttask.Task{CreateRequest: exporttask.CreateRequest{Webhook: []exporttask.Webhook{
		{URL: "a", Events: []exporttask.Event{exporttask.EventStarted}},
		{URL: "b", Events: []exporttask.Event{exporttask.EventCompleted, exporttask.EventStarted}},
		{URL: "a", Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventFailed}},
	}}}
	assert.Equal(t, []exporttask.Webhook{task.Webhook[0], task.Webhook[1]}, SubscriptionsTo(task, exporttask.EventStarted))
	assert.Equal(t, []exporttask.Webhook{task.Webhook[2]}, SubscriptionsTo(task, exporttask.EventFailed))
	assert.Empty(t, SubscriptionsTo(task, exporttask.EventExpired))
}

func TestLateSubscriptions(t *testing.T) {
	before := []exporttask.Webhook{{URL: "a", Events: []exporttask.Event{exporttask.EventCompleted}}}
	merged, _ := MergeWebhooks(before, []exporttask.Webhook{
		{URL: "a", Events: []exporttask.Event{exporttask.EventStarted}},
		{URL: "b", Events: []exporttask.Event{exporttask.EventCompleted}},
		{URL: "c", Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventInProgress}},
	})
	tests := []struct {
		name string
		task exporttask.Task
		want map[exporttask.Event][]string
	}{
		{"pending: nothing happened", exporttask.Task{Status: exporttask.StatusPending}, nil},
		{"started", exporttask.Task{Status: exporttask.StatusInProgress}, map[exporttask.Event][]string{exporttask.EventStarted: {"a", "c"}}},
		{"progress reported", exporttask.Task{Status: exporttask.StatusInProgress, Progress: 5},
			map[exporttask.Event][]string{exporttask.EventStarted: {"a", "c"}, exporttask.EventInProgress: {"c"}}},
		{"completed: only b lacked it", exporttask.Task{Status: exporttask.StatusCompleted}, map[exporttask.Event][]string{exporttask.EventCompleted: {"b"}}},
		{"failed: nobody subscribes", exporttask.Task{Status: exporttask.StatusFailed}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got map[exporttask.Event][]string
			for ev, subs := range LateSubscriptions(tc.task, before, merged) {
				if got == nil {
					got = map[exporttask.Event][]string{}
				}
				for _, s := range subs {
					got[ev] = append(got[ev], s.URL)
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
