// Command ours creates tasks in both shapes, reads and lists them with a
// client generated from this module's openapi.yaml.
package main

import (
	"context"
	"fmt"

	"gentest/api"
)

// name prefixes the program's errors.
const name = "ours"

// run calls the API through c and checks its answers.
func run(ctx context.Context, c *api.ClientWithResponses) error {
	var ids []int64
	for i, v170 := range []bool{false, true} {
		x := 34.70 + 0.02*float64(i)
		var g api.Geometry
		if err := g.FromPolygon(api.Polygon{Type: "Polygon", Coordinates: []api.LinearRing{{
			{x, 31.70}, {x + 0.01, 31.70}, {x + 0.01, 31.71}, {x, 31.71}, {x, 31.70}}}}); err != nil {
			return err
		}
		hooks := &[]api.Webhook{{Url: "https://hooks.example.org/ours", Events: []api.Event{"TASK_COMPLETED"}}}
		body := api.CreateRequest{
			CatalogRecordID: recordID,
			Domain:          "RASTER",
			ArtifactCRS:     "4326",
			ROI:             &api.FeatureCollection{Type: "FeatureCollection", Features: []api.Feature{{Type: "Feature", Geometry: g}}},
		}
		if v170 {
			body.Webhooks = hooks
		} else {
			body.Webhook = hooks
		}
		created, err := c.CreateExportTaskWithResponse(ctx, nil, body)
		if err != nil {
			return err
		}
		if created.JSON201 == nil {
			return fmt.Errorf("create: %d %s", created.StatusCode(), created.Body)
		}
		if got := created.JSON201.Webhooks != nil; got != v170 || (created.JSON201.Webhook != nil) == v170 {
			return fmt.Errorf("create: answered in the other shape: %s", created.Body)
		}
		read, err := c.GetTaskByIdWithResponse(ctx, created.JSON201.Id)
		if err != nil {
			return err
		}
		if read.JSON200 == nil || read.JSON200.Id != created.JSON201.Id || (read.JSON200.Webhooks != nil) != v170 {
			return fmt.Errorf("read: %d %s", read.StatusCode(), read.Body)
		}
		ids = append(ids, created.JSON201.Id)
	}
	limit := 1
	list, err := c.ListExportTasksWithResponse(ctx, &api.ListExportTasksParams{Limit: &limit})
	if err != nil {
		return err
	}
	if list.JSON200 == nil || len(*list.JSON200) != 1 || (*list.JSON200)[0].Id != ids[1] || list.HTTPResponse.Header.Get("Link") == "" {
		return fmt.Errorf("list: %d %s", list.StatusCode(), list.Body)
	}
	fmt.Printf("ours: tasks %v, listed\n", ids)
	return nil
}
