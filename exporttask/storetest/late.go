package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testDedupLateSubscriber: a duplicate that subscribes to an event that
// already happened is sent it at once; subscribers that already had it are
// not sent it again.
func testDedupLateSubscriber(t *testing.T, s taskstore.Store) {
	create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventCompleted)), at(0)))
	_, _, completed := runTask(t, s)
	drain(t, s, at(time.Minute))

	dup, replayed, err := s.Create(ctx(t), params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventCompleted, exporttask.EventStarted),
		hook(hookB, exporttask.EventCompleted, exporttask.EventFailed)), at(time.Hour)))
	require.NoError(t, err)
	require.True(t, replayed)
	require.Equal(t, completed.ID, dup.ID)

	ds := drain(t, s, at(time.Hour))
	assert.Equal(t, []string{hookB + " TASK_COMPLETED"}, sent(ds),
		"hookB gets the completion it missed; hookA had it; TASK_STARTED no longer describes the task")
	require.Len(t, ds, 1)
	assertPayload(t, ds[0], exporttask.EventCompleted, dup, at(time.Hour))
}

// testDedupLateSubscriberInProgress: a late subscriber to a running task
// that reported progress gets TASK_STARTED then TASK_IN_PROGRESS.
func testDedupLateSubscriberInProgress(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1"), at(0)))
	claim(t, s, "w", at(time.Second))
	_, err := s.Progress(ctx(t), task.ID, "w", 40, at(2*time.Second), time.Minute)
	require.NoError(t, err)
	create(t, s, params(t, acme, request("rec-2"), at(0))) // another task: not concerned
	dup, replayed, err := s.Create(ctx(t), params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventStarted, exporttask.EventInProgress, exporttask.EventCompleted)), at(time.Minute)))
	require.NoError(t, err)
	require.True(t, replayed)
	ds := drain(t, s, at(time.Minute))
	for _, d := range ds {
		assert.Equal(t, dup.ID, d.TaskID)
	}
	assert.Equal(t, []string{hookA + " TASK_STARTED", hookA + " TASK_IN_PROGRESS"}, sent(ds))
}

// testDedupMergeLimit: a duplicate whose merge would exceed MaxWebhooks
// URLs is refused with a validation error naming /webhook, and changes
// nothing.
func testDedupMergeLimit(t *testing.T, s taskstore.Store) {
	hooks := func(from, n int) []exporttask.Webhook {
		var hs []exporttask.Webhook
		for i := from; i < from+n; i++ {
			hs = append(hs, hook(fmt.Sprintf("https://hooks.example.com/%d", i), exporttask.EventCompleted))
		}
		return hs
	}
	first := create(t, s, params(t, acme, request("rec-1", hooks(0, exporttask.MaxWebhooks-1)...), at(0)))

	// Up to the limit: merged.
	dup, replayed, err := s.Create(ctx(t), params(t, acme, request("rec-1", hooks(exporttask.MaxWebhooks-1, 1)...), at(time.Second)))
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Len(t, dup.Webhook, exporttask.MaxWebhooks)

	// Repeating known URLs stays within the limit.
	_, _, err = s.Create(ctx(t), params(t, acme, request("rec-1", hooks(0, 3)...), at(2*time.Second)))
	require.NoError(t, err)

	// One more URL: refused.
	_, _, err = s.Create(ctx(t), params(t, acme, request("rec-1", hooks(100, 1)...), at(3*time.Second)))
	var ve *exporttask.ValidationError
	require.True(t, errors.As(err, &ve), "got %v", err)
	require.Len(t, ve.Problems, 1)
	assert.Equal(t, "/webhook", ve.Problems[0].Pointer)
	assert.Contains(t, ve.Problems[0].Message, fmt.Sprintf("at most %d", exporttask.MaxWebhooks))
	assert.Len(t, get(t, s, acme, first.ID).Webhook, exporttask.MaxWebhooks, "nothing merged")
}
