package exporttask_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// v170Body is minimalBody as a v1.7.0 client writes it: "webhooks", and
// null for the nullable members.
const v170Body = `{"catalogRecordID": "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05", "domain": "DEM", "artifactCRS": "4326",
  "description": null, "keywords": null,
  "webhooks": [{"url": "https://hooks.example.org/exports", "events": ["TASK_COMPLETED"]}]}`

// TestDecodeV170Shape: a body with "webhooks" decodes to the same request
// as one with "webhook", with the v1.7.0 Shape; null description and
// keywords mean absent.
func TestDecodeV170Shape(t *testing.T) {
	got, err := exporttask.DecodeCreateRequest(strings.NewReader(v170Body))
	require.NoError(t, err)
	assert.Equal(t, exporttask.ShapeV170, got.Shape)
	want, err := exporttask.DecodeCreateRequest(strings.NewReader(minimalBody))
	require.NoError(t, err)
	assert.Equal(t, exporttask.ShapeV165, want.Shape)
	want.Shape = exporttask.ShapeV170
	assert.Equal(t, want, got)
}

// TestDecodeV170ShapeProblems: a problem in the webhooks of a v1.7.0 body
// is reported at its own pointer, /webhooks/...
func TestDecodeV170ShapeProblems(t *testing.T) {
	for body, want := range map[string][]exporttask.FieldError{
		strings.Replace(v170Body, "https://hooks", "ftp://hooks", 1):           {fe("/webhooks/0/url", `must be an http or https URL, got scheme "ftp"`)},
		strings.Replace(v170Body, `["TASK_COMPLETED"]`, `[]`, 1):               {fe("/webhooks/0/events", "must list at least one event")},
		strings.Replace(v170Body, `"webhooks": [`, `"webhooks": 5, "x": [`, 1): nil,
	} {
		_, err := exporttask.DecodeCreateRequest(strings.NewReader(body))
		var ve *exporttask.ValidationError
		require.True(t, errors.As(err, &ve), "%s: %v", body, err)
		if want != nil {
			assert.Equal(t, want, ve.Problems, body)
			continue
		}
		assert.Equal(t, fe("/webhooks", "must be an array, got a number"), ve.Problems[0], body)
	}
}

// TestTaskKeepsItsShape: a task encodes its webhooks under the name of its
// request's shape, and decodes back to the same task, whatever "webhook"
// keys its keywords, parameters and ROI properties hold.
func TestTaskKeepsItsShape(t *testing.T) {
	body := strings.Replace(v170Body, `"keywords": null`, `"keywords": {"webhook": [1], "webhooks": "k"}, "parameters": {"webhook": {"webhook": 2}}`, 1)
	req, err := exporttask.DecodeCreateRequest(strings.NewReader(body))
	require.NoError(t, err)
	task := exporttask.Task{ID: 7, CreateRequest: req, Status: exporttask.StatusCompleted, ErrorReason: `"webhook": x`,
		Artifacts: []exporttask.Artifact{{Name: "webhook", Type: exporttask.ArtifactMetadata}}}
	for _, shape := range []exporttask.RequestShape{exporttask.ShapeV165, exporttask.ShapeV170} {
		task.Shape = shape
		b, err := json.Marshal(task)
		require.NoError(t, err)
		var top map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(b, &top))
		other := exporttask.ShapeV165
		if shape == other {
			other = exporttask.ShapeV170
		}
		assert.JSONEq(t, `[{"url": "https://hooks.example.org/exports", "events": ["TASK_COMPLETED"]}]`, string(top[shape.WebhookMember()]), shape.String())
		assert.NotContains(t, top, other.WebhookMember(), shape.String())
		assert.JSONEq(t, `{"webhook": [1], "webhooks": "k"}`, string(top["keywords"]))

		var back exporttask.Task
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, task, back, shape.String())
	}
}
