package exporttask_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// fullTask sets every field of a Task.
func fullTask() exporttask.Task {
	at := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	return exporttask.Task{
		ID:            7,
		CreateRequest: validRequest(),
		EstimatedSize: 1234,
		EstimatedTime: 56,
		Status:        exporttask.StatusCompleted,
		ErrorReason:   "none",
		Progress:      100,
		Artifacts: []exporttask.Artifact{{Name: "a.gpkg", Type: exporttask.ArtifactGPKG, Size: 9,
			URL: "https://downloads.example.com/a.gpkg", SHA256: "ab"}},
		CreatedAt:  exporttask.NewTime(at),
		ExpiredAt:  exporttask.NewTime(at.Add(time.Hour)),
		FinishedAt: exporttask.NewTime(at.Add(time.Minute)),
	}
}

// TestTaskJSONGolden pins the JSON of a task, member order included: the
// API's answers must not change when the Go type does.
func TestTaskJSONGolden(t *testing.T) {
	for name, task := range map[string]exporttask.Task{
		"full":    fullTask(),
		"minimal": {ID: 1, Status: exporttask.StatusPending},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(task, "", "  ")
			require.NoError(t, err)
			golden := filepath.Join("testdata", "task_"+name+".golden.json")
			if os.Getenv("UPDATE_GOLDEN") != "" {
				require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got)+"\n")

			var back exporttask.Task
			require.NoError(t, json.Unmarshal(got, &back))
			again, err := json.MarshalIndent(back, "", "  ")
			require.NoError(t, err)
			assert.Equal(t, string(got), string(again), "a decoded task encodes the same")
		})
	}
}
