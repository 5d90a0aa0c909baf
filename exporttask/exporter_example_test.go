package exporttask_test

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// tileExporter is a custom Exporter: it estimates from the region's area
// and "exports" one GeoPackage, reporting progress as it goes.
type tileExporter struct {
	bytesPerKm2 int64
	baseURL     string
}

func (e tileExporter) Estimate(_ context.Context, r exporttask.CreateRequest) (exporttask.Estimate, error) {
	area := 1000.0 // the whole record, when there is no region of interest
	if r.ROI != nil {
		a, err := r.ROI.AreaKm2()
		if err != nil {
			return exporttask.Estimate{}, fmt.Errorf("measuring the region of interest: %w", err)
		}
		area = a
	}
	return exporttask.Estimate{Size: int64(area) * e.bytesPerKm2, Time: 60}, nil
}

func (e tileExporter) Export(ctx context.Context, t exporttask.Task, report func(int) error) ([]exporttask.Artifact, error) {
	for p := 25; p < 100; p += 25 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// ... cut a quarter of the tiles ...
		if err := report(p); err != nil {
			return nil, err // aborted, or the lease was lost: stop
		}
	}
	name := t.CatalogRecordID + ".gpkg"
	return []exporttask.Artifact{{
		Name: name, Type: exporttask.ArtifactGPKG, Size: t.EstimatedSize,
		URL: fmt.Sprintf("%s/%d/%s", e.baseURL, t.ID, name),
	}}, nil
}

// An Exporter does the work behind the tasks. Give yours to
// server.Config.Exporter (or worker.RunnerConfig.Exporter); here it is
// called directly, as a worker would.
func ExampleExporter() {
	var exp exporttask.Exporter = tileExporter{bytesPerKm2: 2048, baseURL: "https://downloads.example.com"}
	ctx := context.Background()
	req := exporttask.CreateRequest{
		CatalogRecordID: "harbour", Domain: exporttask.DomainRaster, ArtifactCRS: exporttask.CRS4326,
		ROI: &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature, Properties: map[string]any{},
			Geometry: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		}}},
	}
	est, err := exp.Estimate(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("estimate:", est.Size, "bytes,", est.Time, "s")

	task := exporttask.Task{ID: 1, CreateRequest: req, EstimatedSize: est.Size, Status: exporttask.StatusInProgress,
		CreatedAt: exporttask.NewTime(time.Now())}
	artifacts, err := exp.Export(ctx, task, func(p int) error { fmt.Println("progress", p); return nil })
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range artifacts {
		fmt.Println(a.Type, a.URL)
	}
	// Output:
	// estimate: 21590016 bytes, 60 s
	// progress 25
	// progress 50
	// progress 75
	// GPKG https://downloads.example.com/1/harbour.gpkg
}
