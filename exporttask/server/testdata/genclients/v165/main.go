// Command v165 creates and reads a task with a client generated from the
// reference service's v1.6.5 description.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"gentest/api"

	openapi_types "github.com/oapi-codegen/runtime/types"
)

func main() {
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "v165:", err)
		os.Exit(1)
	}
}

func run(url, key string) error {
	ctx := context.Background()
	c, err := api.NewClientWithResponses(url, api.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("x-api-key", key)
		return nil
	}))
	if err != nil {
		return err
	}
	var g api.Geometry
	if err := g.FromPolygon(api.Polygon{Type: "Polygon", Coordinates: &[][]api.Point2D{{
		{34.60, 31.60}, {34.62, 31.60}, {34.62, 31.62}, {34.60, 31.62}, {34.60, 31.60}}}}); err != nil {
		return err
	}
	desc := "v1.6.5 client"
	body := api.TaskCreate{
		CatalogRecordID: openapi_types.UUID{0x8b, 0x86, 0x75, 0x44, 0x2d, 0xab, 0x43, 0xa1, 0xbe, 0x6e, 0xf2, 0x3e, 0xc8, 0x3c, 0x19, 0xb4},
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
