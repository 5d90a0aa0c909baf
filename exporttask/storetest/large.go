package storetest

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// LargeRequestWebhooks is how many webhooks [LargeRequestLifecycle]'s
// request lists.
const LargeRequestWebhooks = exporttask.MaxWebhooks

// LargeRequestLifecycle runs a request of about roiBytes bytes of ROI with
// LargeRequestWebhooks-1 webhooks, each subscribed to every event, through
// a whole life in s: create, a duplicate create adding the last webhook
// (TASK_UPDATED), claim, three progress reports and completion. It returns the request's encoded size
// and how many deliveries it left in the outbox, for a test of the
// store to measure the outbox rows in its database.
func LargeRequestLifecycle(t *testing.T, s taskstore.Store, roiBytes int) (requestBytes, deliveries int) {
	t.Helper()
	var hooks []exporttask.Webhook
	for i := range LargeRequestWebhooks {
		hooks = append(hooks, hook(fmt.Sprintf("https://hooks.example.com/receiver-%02d?token=%032d", i, i), exporttask.Events()...))
	}
	r := request("rec-large", hooks...)
	r.ROI = circles(roiBytes)
	body, err := json.Marshal(r)
	require.NoError(t, err)

	r.Webhook = hooks[:len(hooks)-1]
	task := create(t, s, params(t, acme, r, at(0)))
	dup := r
	dup.Webhook = hooks[len(hooks)-1:]
	_, replayed, err := s.Create(ctx(t), params(t, acme, dup, at(time.Second)))
	require.NoError(t, err)
	require.True(t, replayed)
	claim(t, s, "w", at(2*time.Second))
	for i, p := range []int{25, 50, 75} {
		_, err := s.Progress(ctx(t), task.ID, "w", p, at(time.Duration(3+i)*time.Second), time.Minute)
		require.NoError(t, err)
	}
	finish(t, s, task.ID, "w", at(10*time.Second))
	// Ten receivers of TASK_UPDATED, TASK_STARTED, three TASK_IN_PROGRESS
	// and TASK_COMPLETED.
	return len(body), 10 * 6
}

// circles is a FeatureCollection of polygons, each a ring of 2,000
// positions around a circle, with about size bytes of JSON in all.
func circles(size int) *exporttask.FeatureCollection {
	const n = 2000
	fc := &exporttask.FeatureCollection{Type: "FeatureCollection"}
	for k := 0; ; k++ {
		ring := make([]exporttask.Position, n+1)
		for i := range n {
			a := 2 * math.Pi * float64(i) / n
			ring[i] = exporttask.Position{34.7 + float64(k) + 0.123456789*math.Cos(a), 32.1 + 0.123456789*math.Sin(a)}
		}
		ring[n] = ring[0]
		fc.Features = append(fc.Features, exporttask.Feature{Type: "Feature", Geometry: exporttask.NewPolygon(ring)})
		b, _ := json.Marshal(fc)
		if len(b) >= size {
			return fc
		}
	}
}
