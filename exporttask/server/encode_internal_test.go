package server

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestEncodeJSONIsTheEncoders checks that the short cut for tasks writes
// exactly what json.Encoder writes, HTML escaping and final newline
// included.
func TestEncodeJSONIsTheEncoders(t *testing.T) {
	task := exporttask.Task{
		ID: 42,
		CreateRequest: exporttask.CreateRequest{
			CatalogRecordID: "c0ffee00-0000-4000-8000-000000000001",
			Domain:          exporttask.DomainRaster,
			ArtifactCRS:     exporttask.CRS4326,
			Description:     "<b>roads & rails</b> \u2028",
			Keywords:        map[string]any{"z": json.Number("1.0"), "a": "<x>"},
			Webhook:         []exporttask.Webhook{{URL: "https://hooks.example.com/a?b=1&c=2", Events: []exporttask.Event{exporttask.EventCompleted}}},
		},
		Status:    exporttask.StatusCompleted,
		CreatedAt: exporttask.NewTime(time.Date(2026, 11, 23, 10, 0, 0, 123e6, time.UTC)),
		Artifacts: []exporttask.Artifact{{Name: "a.gpkg", Size: 10}},
	}
	for _, v := range []any{task, exporttask.Task{}, []exporttask.Task{task}, map[string]string{"a": "<&>"}} {
		var want bytes.Buffer
		require.NoError(t, json.NewEncoder(&want).Encode(v))
		got, err := encodeJSON(v)
		require.NoError(t, err)
		assert.Equal(t, want.String(), string(got))
	}
}
