package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask"
)

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 812: "812 B", 999: "999 B", 1000: "1.00 kB", 12_345: "12.3 kB", 999_499: "999 kB",
		999_500: "1.00 MB", 1_234_567: "1.23 MB", 5_000_000_000: "5.00 GB", 1 << 62: "4.61 EB",
	} {
		assert.Equal(t, want, byteSize(n), n)
	}
}

func TestEventLine(t *testing.T) {
	at := exporttask.NewTime(time.Date(2026, 11, 23, 14, 40, 2, 123e6, time.UTC))
	for _, tc := range []struct {
		name string
		p    exporttask.EventPayload
		want string
	}{
		{"started", exporttask.EventPayload{Event: exporttask.EventStarted, Timestamp: at,
			Data: exporttask.EventTask{ID: 3, Status: exporttask.StatusInProgress}},
			"2026-11-23T14:40:02.123Z delivery 9: TASK_STARTED task 3 IN_PROGRESS 0% artifacts: none"},
		{"failed", exporttask.EventPayload{Event: exporttask.EventFailed, Timestamp: at,
			Data: exporttask.EventTask{ID: 3, Status: exporttask.StatusFailed, Progress: 40, ErrorReason: `failed 3 times, last: "disk full"`}},
			`2026-11-23T14:40:02.123Z delivery 9: TASK_FAILED task 3 FAILED 40% errorReason "failed 3 times, last: \"disk full\"" artifacts: none`},
		{"completed", exporttask.EventPayload{Event: exporttask.EventCompleted, Timestamp: at,
			Data: exporttask.EventTask{ID: 3, Status: exporttask.StatusCompleted, Progress: 100, Artifacts: []exporttask.Artifact{
				{Name: "a.gpkg", Type: "GPKG", Size: 2_500_000}, {Name: "a.json", Type: "METADATA", Size: 812}}}},
			"2026-11-23T14:40:02.123Z delivery 9: TASK_COMPLETED task 3 COMPLETED 100% artifacts: a.gpkg (GPKG, 2.50 MB), a.json (METADATA, 812 B)"},
	} {
		assert.Equal(t, tc.want, eventLine("9", tc.p), tc.name)
	}
}
