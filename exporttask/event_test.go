package exporttask

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarshalEventIsThinAndPerReceiver(t *testing.T) {
	a := Webhook{URL: "https://a.example/hook?token=secret-a", Events: []Event{EventCompleted}}
	b := Webhook{URL: "https://b.example/hook?token=secret-b", Events: []Event{EventCompleted, EventFailed}}
	task := Task{ID: 9, Status: StatusCompleted, Progress: 100,
		CreateRequest: CreateRequest{CatalogRecordID: "rec", Description: "big", Keywords: map[string]any{"k": "v"},
			Parameters: map[string]any{"p": 1}, Webhook: []Webhook{a, b},
			ROI: &FeatureCollection{Type: "FeatureCollection", Features: []Feature{{Type: "Feature",
				Geometry: NewPolygon([]Position{{0, 0}, {1, 0}, {1, 1}, {0, 0}})}}}},
		Artifacts: []Artifact{{Name: "x.gpkg", Type: "GPKG", URL: "https://dl.example/x.gpkg"}}}
	at := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

	body, err := MarshalEvent(EventCompleted, task, b, at)
	require.NoError(t, err)
	assert.JSONEq(t, `{"event":"TASK_COMPLETED","timestamp":"2026-11-21T09:30:00.000Z","data":{
		"id":9,"status":"COMPLETED","progress":100,
		"artifacts":[{"name":"x.gpkg","type":"GPKG","url":"https://dl.example/x.gpkg"}],
		"webhook":{"url":"https://b.example/hook?token=secret-b","events":["TASK_COMPLETED","TASK_FAILED"]},
		"links":[{"rel":"self","href":"/export-tasks/9"}]}}`, string(body))
	assert.NotContains(t, string(body), "secret-a", "another receiver's URL never appears")

	var p EventPayload
	require.NoError(t, json.Unmarshal(body, &p))
	assert.Equal(t, b, p.Data.Webhook)
}

func TestSubscriptionsTo(t *testing.T) {
	task := Task{CreateRequest: CreateRequest{Webhook: []Webhook{
		{URL: "a", Events: []Event{EventStarted}},
		{URL: "b", Events: []Event{EventCompleted, EventStarted}},
		{URL: "a", Events: []Event{EventStarted, EventFailed}},
	}}}
	assert.Equal(t, []Webhook{task.Webhook[0], task.Webhook[1]}, SubscriptionsTo(task, EventStarted))
	assert.Equal(t, []Webhook{task.Webhook[2]}, SubscriptionsTo(task, EventFailed))
	assert.Empty(t, SubscriptionsTo(task, EventExpired))
}

func TestLateSubscriptions(t *testing.T) {
	before := []Webhook{{URL: "a", Events: []Event{EventCompleted}}}
	merged, _ := MergeWebhooks(before, []Webhook{
		{URL: "a", Events: []Event{EventStarted}},
		{URL: "b", Events: []Event{EventCompleted}},
		{URL: "c", Events: []Event{EventStarted, EventInProgress}},
	})
	tests := []struct {
		name string
		task Task
		want map[Event][]string
	}{
		{"pending: nothing happened", Task{Status: StatusPending}, nil},
		{"started", Task{Status: StatusInProgress}, map[Event][]string{EventStarted: {"a", "c"}}},
		{"progress reported", Task{Status: StatusInProgress, Progress: 5},
			map[Event][]string{EventStarted: {"a", "c"}, EventInProgress: {"c"}}},
		{"completed: only b lacked it", Task{Status: StatusCompleted}, map[Event][]string{EventCompleted: {"b"}}},
		{"failed: nobody subscribes", Task{Status: StatusFailed}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got map[Event][]string
			for ev, subs := range LateSubscriptions(tc.task, before, merged) {
				if got == nil {
					got = map[Event][]string{}
				}
				for _, s := range subs {
					got[ev] = append(got[ev], s.URL)
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
