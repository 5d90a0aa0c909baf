// Command v170 creates, reads and lists tasks with a client generated from
// the reference service's v1.7.0 description.
package main

import (
	"context"
	"fmt"

	"gentest/api"
)

// name prefixes the program's errors.
const name = "v170"

// run calls the API through c and checks its answers.
func run(ctx context.Context, c *api.ClientWithResponses) error {
	var g api.Geometry
	if err := g.FromPolygon(api.Polygon{Type: "Polygon", Coordinates: &[][]api.Point2D{{
		{34.64, 31.64}, {34.66, 31.64}, {34.66, 31.66}, {34.64, 31.66}, {34.64, 31.64}}}}); err != nil {
		return err
	}
	// Description and Keywords are nil: the client sends them as null.
	body := api.CreateTaskRequest{
		CatalogRecordID: recordID,
		Domain:          "RASTER",
		ArtifactCRS:     "4326",
		ROI: api.FeatureCollection{Type: "FeatureCollection", Features: []api.Feature{
			{Type: "Feature", Properties: api.FeatureProperties{}, Geometry: &g}}},
	}
	body.Webhooks = append(body.Webhooks, struct {
		Events []api.CreateTaskRequestWebhooksEvents `json:"events"`
		Url    string                                `json:"url"`
	}{Events: []api.CreateTaskRequestWebhooksEvents{"TASK_COMPLETED"}, Url: "https://hooks.example.org/v170"})
	created, err := c.CreateTaskWithResponse(ctx, body)
	if err != nil {
		return err
	}
	if created.JSON201 == nil {
		return fmt.Errorf("create: %d %s", created.StatusCode(), created.Body)
	}
	if w := created.JSON201.Webhooks; w == nil || len(*w) != 1 || (*w)[0].Url != "https://hooks.example.org/v170" {
		return fmt.Errorf("create: the task's webhooks are not the request's: %s", created.Body)
	}
	read, err := c.GetTaskByIdWithResponse(ctx, float32(created.JSON201.Id))
	if err != nil {
		return err
	}
	if read.JSON200 == nil || read.JSON200.Id != created.JSON201.Id || read.JSON200.Webhooks == nil {
		return fmt.Errorf("read: %d %s", read.StatusCode(), read.Body)
	}
	limit := float32(1)
	list, err := c.GetTasksWithResponse(ctx, &api.GetTasksParams{Limit: &limit})
	if err != nil {
		return err
	}
	if list.JSON200 == nil || len(*list.JSON200) != 1 || (*list.JSON200)[0].Id != created.JSON201.Id {
		return fmt.Errorf("list: %d %s", list.StatusCode(), list.Body)
	}
	fmt.Printf("v1.7.0: task %v %s, listed\n", read.JSON200.Id, read.JSON200.Status)
	return nil
}
