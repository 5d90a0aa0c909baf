package exporttask_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

func ExampleDecodeCreateRequest() {
	body := `{
	  "catalogRecordID": "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
	  "domain": "RASTER",
	  "artifactCRS": "4326",
	  "webhook": [{"url": "https://hooks.example.org/exports", "events": ["TASK_COMPLETED"]}]
	}`
	req, err := exporttask.DecodeCreateRequest(strings.NewReader(body))
	fmt.Println(req.Domain, req.Webhook[0].URL, err)

	// A misspelt member: the decoder names it, suggests the right one and
	// goes on to list every other problem, in the order of the body.
	_, err = exporttask.DecodeCreateRequest(strings.NewReader(`{"webhok": []}`))
	var ve *exporttask.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Printf("%s: %s\n", p.Pointer, p.Message)
		}
	}
	// Output:
	// RASTER https://hooks.example.org/exports <nil>
	// /webhok: unknown member "webhok"; did you mean "webhook"?
	// /catalogRecordID: is required
	// /domain: is required
	// /artifactCRS: is required
	// /webhook: at least one webhook is required
}

func ExampleCreateRequest_Validate() {
	req := exporttask.CreateRequest{
		CatalogRecordID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
		Domain:          "RASTER",
		ArtifactCRS:     "3857",
		ROI: &exporttask.FeatureCollection{
			Type: exporttask.TypeFeatureCollection,
			Features: []exporttask.Feature{{
				Type: exporttask.TypeFeature,
				Geometry: exporttask.NewPolygon([]exporttask.Position{
					{34.76, 32.06}, {34.8, 32.06}, {34.8, 32.1}, {34.76, 32.1}}),
			}},
		},
		Webhook: []exporttask.Webhook{{URL: "hooks.example.org", Events: []exporttask.Event{"TASK_COMPLETED"}}},
	}
	// Every problem is reported at once, each at its JSON Pointer.
	var ve *exporttask.ValidationError
	if errors.As(req.Validate(), &ve) {
		for _, p := range ve.Problems {
			fmt.Printf("%s: %s\n", p.Pointer, p.Message)
		}
	}
	// Output:
	// /artifactCRS: must be "4326" (WGS 84), got "3857"
	// /ROI/features/0/geometry/coordinates/0: a linear ring must be closed: its last position must equal its first
	// /webhook/0/url: must be an absolute http or https URL, got "hooks.example.org"
}

func ExampleTransition() {
	ev, err := exporttask.Transition(exporttask.StatusPending, exporttask.StatusInProgress)
	fmt.Println(ev, err)

	_, err = exporttask.Transition(exporttask.StatusCompleted, exporttask.StatusAborted)
	fmt.Println(errors.Is(err, exporttask.ErrInvalidTransition), err)
	// Output:
	// TASK_STARTED <nil>
	// true exporttask: a task cannot move from COMPLETED to ABORTED
}
