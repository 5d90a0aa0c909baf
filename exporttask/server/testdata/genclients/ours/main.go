// Command ours creates tasks in both shapes, reads and lists them with a
// client generated from this module's openapi.yaml.
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
		fmt.Fprintln(os.Stderr, "ours:", err)
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
			CatalogRecordID: openapi_types.UUID{0x8b, 0x86, 0x75, 0x44, 0x2d, 0xab, 0x43, 0xa1, 0xbe, 0x6e, 0xf2, 0x3e, 0xc8, 0x3c, 0x19, 0xb4},
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
