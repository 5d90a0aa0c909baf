package testkit

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
)

// SampleRequestTo is a valid create request whose TASK_COMPLETED webhook
// goes to hookURL.
func SampleRequestTo(n int, hookURL string) exporttask.CreateRequest {
	return exporttask.CreateRequest{
		CatalogRecordID: SampleCatalogID(n),
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     exporttask.CRS4326,
		ROI: &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type:       exporttask.TypeFeature,
			Properties: map[string]any{},
			Geometry: exporttask.NewPolygon([]exporttask.Position{
				{34.80, 31.90}, {34.82, 31.90}, {34.82, 31.92}, {34.80, 31.92}, {34.80, 31.90},
			}),
		}}},
		Webhook: []exporttask.Webhook{{URL: hookURL,
			Events: []exporttask.Event{exporttask.EventCompleted}}},
	}
}

// SampleCatalogID returns a UUID-shaped catalog record id made from n.
func SampleCatalogID(n int) string {
	return fmt.Sprintf("8b867544-2dab-43a1-be6e-%012d", n)
}
