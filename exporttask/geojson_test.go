package exporttask_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

func TestGeometryJSON(t *testing.T) {
	tests := []struct {
		name string
		json string
		want exporttask.Geometry
	}{
		{"polygon", `{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}`,
			*exporttask.NewPolygon([]exporttask.Position{{0, 0}, {1, 0}, {1, 1}, {0, 0}})},
		{"polygon with altitudes", `{"type":"Polygon","coordinates":[[[0.5,-0.25,10],[1,0,10],[1,1,10],[0.5,-0.25,10]]]}`,
			*exporttask.NewPolygon([]exporttask.Position{{0.5, -0.25, 10}, {1, 0, 10}, {1, 1, 10}, {0.5, -0.25, 10}})},
		{"multipolygon", `{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[2,2],[3,2],[3,3],[2,2]]]]}`,
			*exporttask.NewMultiPolygon(
				[][]exporttask.Position{{{0, 0}, {1, 0}, {1, 1}, {0, 0}}},
				[][]exporttask.Position{{{2, 2}, {3, 2}, {3, 3}, {2, 2}}})},
		{"empty polygon", `{"type":"Polygon","coordinates":[]}`,
			exporttask.Geometry{Type: exporttask.TypePolygon, Polygon: [][]exporttask.Position{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g exporttask.Geometry
			require.NoError(t, json.Unmarshal([]byte(tt.json), &g))
			assert.Equal(t, tt.want, g)
			b, err := json.Marshal(g)
			require.NoError(t, err)
			assert.JSONEq(t, tt.json, string(b))
		})
	}
}

func TestGeometryJSONErrors(t *testing.T) {
	var g exporttask.Geometry
	err := json.Unmarshal([]byte(`{"type":"Polygon","coordinates":[[[[0]]]]}`), &g)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exporttask: decoding the coordinates of a Polygon")
	err = json.Unmarshal([]byte(`{"type":"MultiPolygon","coordinates":[[[0,0]]]}`), &g)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exporttask: decoding the coordinates of a MultiPolygon")
	assert.Error(t, json.Unmarshal([]byte(`{"type":5}`), &g))

	// Another type decodes, without its coordinates, for validation to
	// name; it cannot be encoded.
	require.NoError(t, json.Unmarshal([]byte(`{"type":"Point","coordinates":[1,2]}`), &g))
	assert.Equal(t, exporttask.Geometry{Type: "Point"}, g)
	_, err = json.Marshal(g)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `cannot encode a geometry of type "Point": only Polygon and MultiPolygon are supported`)
}

func TestFeaturePropertiesRoundTrip(t *testing.T) {
	for _, props := range []string{`null`, `{}`, `{"a":null,"b":[1,"x"],"c":{"d":true}}`} {
		in := `{"type":"Feature","properties":` + props + `,"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}`
		var f exporttask.Feature
		require.NoError(t, json.Unmarshal([]byte(in), &f))
		out, err := json.Marshal(f)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out), "properties %s", props)
	}
}

func TestTaskJSONAlwaysHasItsRequiredFields(t *testing.T) {
	b, err := json.Marshal(exporttask.Task{ID: 1, Status: exporttask.StatusPending})
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":1,"catalogRecordID":"","domain":"","artifactCRS":"","webhook":[],
		"status":"PENDING","progress":0,"artifacts":[],"createdAt":"0001-01-01T00:00:00.000Z"}`, string(b))
	// Through a pointer and inside a webhook payload too.
	b, err = json.Marshal(&exporttask.EventPayload{Event: exporttask.EventStarted, Data: exporttask.NewEventTask(exporttask.Task{ID: 2}, exporttask.Webhook{})})
	require.NoError(t, err)
	assert.Contains(t, string(b), `"artifacts":[]`)
}

func TestGeometryPolygons(t *testing.T) {
	a, b := square(0, 0), square(5, 5)
	assert.Equal(t, [][][]exporttask.Position{{a, b}}, exporttask.NewPolygon(a, b).Polygons())
	assert.Equal(t, [][][]exporttask.Position{{a}, {b}},
		exporttask.NewMultiPolygon([][]exporttask.Position{a}, [][]exporttask.Position{b}).Polygons())
	assert.Nil(t, exporttask.NewPolygon().Polygons())
	assert.Nil(t, (&exporttask.Geometry{Type: "Point"}).Polygons())
}
