// Command client exports a region of a catalog record (by default a small
// region of the demo DEM) with the Go client of package exporttask/client:
// it creates a task, waits until it is COMPLETED, and downloads every
// file, each resumed after a cut connection and checked against the size
// and SHA-256 the task gives.
//
// With the reference server running (go run ./examples/server) and the key
// it printed:
//
//	go run ./examples/client -key "$KEY"
//	go run ./examples/client -key "$KEY" -domain RASTER -out raster
//	go run ./examples/client -key "$KEY" -domain 3D -roi area.geojson
//	go run ./examples/client -key "$KEY" -domain DEM -record ID -roi area.geojson   # a record you added
//
// Flags:
//
//	-url     the server (default http://localhost:8080)
//	-key     an API key with the write scope (required)
//	-domain  RASTER, DEM or 3D (default DEM)
//	-record  the catalog record's id (default: the demo record of -domain)
//	-roi     a GeoJSON FILE: a FeatureCollection, a Feature or a bare Polygon
//	         or MultiPolygon (default: a small square of the demo record;
//	         with -record, the whole record)
//	-webhook where the task's webhook goes (default http://127.0.0.1:8090/hooks,
//	         examples/webhook-receiver's address; the export does not need it)
//	-out     where the files go (default export-ID in the working directory)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/client"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "client:", err)
		}
		os.Exit(2)
	}
}

// demoROIs are small squares (0.04° by default, 0.01° for 3D) inside the
// demo records, by domain.
var demoROIs = map[exporttask.Domain][4]float64{
	exporttask.DomainDEM:    {34.78, 31.25, 34.82, 31.29},
	exporttask.DomainRaster: {34.78, 31.25, 34.82, 31.29},
	exporttask.Domain3D:     {34.52, 31.47, 34.53, 31.48},
}

// demoRecords are the demo catalog's records, by domain.
var demoRecords = map[exporttask.Domain]string{
	exporttask.DomainDEM: demo.DEMID, exporttask.DomainRaster: demo.RasterID, exporttask.Domain3D: demo.Tiles3DID,
}

// request is the export the flags ask for: record (default the demo record
// of domain), cut to roi (default a small square of the demo record, or
// the whole record when record is given), with a webhook to hook.
func request(domain exporttask.Domain, record string, roi *exporttask.FeatureCollection, hook string) exporttask.CreateRequest {
	if record == "" {
		record = demoRecords[domain]
		if roi == nil {
			b := demoROIs[domain]
			roi = &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
				Type: exporttask.TypeFeature, Properties: map[string]any{},
				Geometry: exporttask.NewPolygon([]exporttask.Position{
					{b[0], b[1]}, {b[2], b[1]}, {b[2], b[3]}, {b[0], b[3]}, {b[0], b[1]}}),
			}}}
		}
	}
	return exporttask.CreateRequest{
		CatalogRecordID: record,
		Domain:          domain,
		ArtifactCRS:     exporttask.CRS4326,
		ROI:             roi,
		Webhook:         []exporttask.Webhook{{URL: hook, Events: []exporttask.Event{exporttask.EventCompleted}}},
	}
}

// readROI reads a GeoJSON file as a FeatureCollection: a FeatureCollection
// as it is, a Feature or a bare geometry wrapped in one.
func readROI(path string) (*exporttask.FeatureCollection, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-roi: %w", err)
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("-roi %s: not GeoJSON: %w", path, err)
	}
	switch head.Type {
	case exporttask.TypeFeatureCollection:
		var fc exporttask.FeatureCollection
		if err := json.Unmarshal(b, &fc); err != nil {
			return nil, fmt.Errorf("-roi %s: %w", path, err)
		}
		return &fc, nil
	case exporttask.TypeFeature:
		var f exporttask.Feature
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("-roi %s: %w", path, err)
		}
		if f.Properties == nil {
			f.Properties = map[string]any{}
		}
		return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{f}}, nil
	case "Polygon", "MultiPolygon":
		var g exporttask.Geometry
		if err := json.Unmarshal(b, &g); err != nil {
			return nil, fmt.Errorf("-roi %s: %w", path, err)
		}
		return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature, Properties: map[string]any{}, Geometry: &g}}}, nil
	}
	return nil, fmt.Errorf("-roi %s: a FeatureCollection, Feature, Polygon or MultiPolygon is needed, got type %q", path, head.Type)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", "http://localhost:8080", "the server's base `URL`")
	key := fs.String("key", "", "an API `key` with the write scope (required)")
	out := fs.String("out", "", "`DIR` for the files (default export-ID)")
	domainFlag := fs.String("domain", "DEM", "the record's `domain`: RASTER, DEM or 3D")
	record := fs.String("record", "", "the catalog record's `id` (default: the demo record of -domain)")
	roiPath := fs.String("roi", "", "GeoJSON `FILE` of the region to export (default: a small square of the demo record; the whole record with -record)")
	hook := fs.String("webhook", "http://127.0.0.1:8090/hooks", "`URL` of the task's webhook (examples/webhook-receiver's by default)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *key == "" {
		return errors.New("-key is required: the key the server printed at start")
	}
	domain := exporttask.Domain(strings.ToUpper(*domainFlag))
	if !domain.Valid() {
		return fmt.Errorf("-domain must be RASTER, DEM or 3D, got %q", *domainFlag)
	}
	var roi *exporttask.FeatureCollection
	if *roiPath != "" {
		var err error
		if roi, err = readROI(*roiPath); err != nil {
			return err
		}
	}
	c, err := client.New(*base, *key)
	if err != nil {
		return err
	}
	task, err := c.Create(ctx, request(domain, *record, roi, *hook))
	if err != nil {
		return fmt.Errorf("creating the task: %w", err)
	}
	fmt.Fprintf(stdout, "task %d %s, estimated %d bytes in %d s\n", task.ID, task.Status, task.EstimatedSize, task.EstimatedTime)
	done, err := c.Wait(ctx, task.ID, 200*time.Millisecond)
	if err != nil {
		return fmt.Errorf("waiting for task %d: %w", task.ID, err)
	}
	if done.Status != exporttask.StatusCompleted {
		return fmt.Errorf("task %d ended %s: %s", done.ID, done.Status, done.ErrorReason)
	}
	dir := *out
	if dir == "" {
		dir = "export-" + strconv.FormatInt(done.ID, 10)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, a := range done.Artifacts {
		path := filepath.Join(dir, a.Name)
		if err := c.DownloadFile(ctx, a, path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s %s (%d bytes, SHA-256 checked)\n", a.Type, path, a.Size)
	}
	return nil
}
