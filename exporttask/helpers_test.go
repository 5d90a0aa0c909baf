package exporttask_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

const testUUID = "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05"

// square returns a closed ring of 5 positions around (lon, lat).
func square(lon, lat float64) []exporttask.Position {
	return []exporttask.Position{{lon, lat}, {lon + 0.01, lat}, {lon + 0.01, lat + 0.01}, {lon, lat + 0.01}, {lon, lat}}
}

// ring returns a closed, simple ring of n ≥ 4 positions: a regular polygon
// around (34.5, 32.5).
func ring(n int) []exporttask.Position {
	r := make([]exporttask.Position, 0, n)
	for i := 0; i < n-1; i++ {
		a := 2 * math.Pi * float64(i) / float64(n-1)
		r = append(r, exporttask.Position{34.5 + 0.1*math.Cos(a), 32.5 + 0.1*math.Sin(a)})
	}
	return append(r, r[0])
}

// feature returns a feature with geometry g and empty properties.
func feature(g *exporttask.Geometry) exporttask.Feature {
	return exporttask.Feature{Type: exporttask.TypeFeature, Properties: map[string]any{}, Geometry: g}
}

// validRequest returns a request that uses every field and passes
// validation.
func validRequest() exporttask.CreateRequest {
	return exporttask.CreateRequest{
		CatalogRecordID: testUUID,
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     exporttask.CRS4326,
		Description:     "harbour",
		Keywords:        map[string]any{"project": "coastline"},
		Parameters:      map[string]any{"maxResolutionDeg": 0.5},
		ROI: &exporttask.FeatureCollection{
			Type:     exporttask.TypeFeatureCollection,
			Features: []exporttask.Feature{feature(exporttask.NewPolygon(square(34.7, 32.0)))},
		},
		Webhook: []exporttask.Webhook{{
			URL:    "https://hooks.example.org/exports",
			Events: []exporttask.Event{exporttask.EventCompleted, exporttask.EventFailed},
		}},
	}
}

// problemsOf returns the problems of a *ValidationError, failing the test
// on any other error; nil for a nil error.
func problemsOf(t *testing.T, err error) []exporttask.FieldError {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *exporttask.ValidationError
	require.True(t, errors.As(err, &ve), "want a *ValidationError, got %T: %v", err, err)
	require.NotEmpty(t, ve.Problems)
	return ve.Problems
}

// fe is short for a FieldError in test tables.
func fe(ptr, msg string) exporttask.FieldError {
	return exporttask.FieldError{Pointer: ptr, Message: msg}
}
