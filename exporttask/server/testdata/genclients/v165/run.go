// Command v165 creates and reads a task with a client generated from the
// reference service's v1.6.5 description.
package main

import (
	"context"
	"fmt"

	"gentest/api"
)

// name prefixes the program's errors.
const name = "v165"

// run calls the API through c and checks its answers.
func run(ctx context.Context, c *api.ClientWithResponses) error {
	var g api.Geometry
	if err := g.FromPolygon(api.Polygon{Type: "Polygon", Coordinates: &[][]api.Point2D{{
		{34.60, 31.60}, {34.62, 31.60}, {34.62, 31.62}, {34.60, 31.62}, {34.60, 31.60}}}}); err != nil {
		return err
	}
	desc := "v1.6.5 client"
	body := api.TaskCreate{
		CatalogRecordID: recordID,
		Domain:          "RASTER",
		ArtifactCRS:     "4326",
		Description:     &desc,
		ROI: &api.FeatureCollection{Type: "FeatureCollection", Features: []api.Feature{
			{Type: "Feature", Properties: api.FeatureProperties{}, Geometry: g}}},
	}
	body.Webhook = append(body.Webhook, struct {
		Events []api.TaskCreateWebhookEvents `json:"events"`
		Url    string                        `json:"url"`
	}{Events: []api.TaskCreateWebhookEvents{"TASK_COMPLETED"}, Url: "https://hooks.example.org/v165"})
	created, err := c.CreateExportTaskWithResponse(ctx, body)
	if err != nil {
		return err
	}
	if created.JSON201 == nil {
		return fmt.Errorf("create: %d %s", created.StatusCode(), created.Body)
	}
	if len(created.JSON201.Webhook) != 1 || created.JSON201.Webhook[0].Url != "https://hooks.example.org/v165" {
		return fmt.Errorf("create: the task's webhook is not the request's: %s", created.Body)
	}
	read, err := c.GetTaskByIdWithResponse(ctx, float32(created.JSON201.Id))
	if err != nil {
		return err
	}
	if read.JSON200 == nil || read.JSON200.Id != created.JSON201.Id || len(read.JSON200.Webhook) != 1 ||
		read.JSON200.Description == nil || *read.JSON200.Description != desc {
		return fmt.Errorf("read: %d %s", read.StatusCode(), read.Body)
	}
	fmt.Printf("v1.6.5: task %v %s\n", read.JSON200.Id, read.JSON200.Status)
	return nil
}
