package export_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// tileExporter is a custom Exporter: it estimates from the region's area
// and "exports" one GeoPackage through the Output, reporting progress as it
// goes.
type tileExporter struct {
	bytesPerKm2 int64
}

func (e tileExporter) Estimate(_ context.Context, r exporttask.CreateRequest) (export.Estimate, error) {
	area := 1000.0 // the whole record, when there is no region of interest
	if r.ROI != nil {
		a, err := r.ROI.AreaKm2()
		if err != nil {
			return export.Estimate{}, fmt.Errorf("measuring the region of interest: %w", err)
		}
		area = a
	}
	return export.Estimate{Size: int64(area) * e.bytesPerKm2, Time: 60}, nil
}

func (e tileExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	name := t.CatalogRecordID + ".gpkg"
	w, err := out.Create(ctx, name)
	if err != nil {
		return nil, err
	}
	defer w.Abort() // nothing half-written stays when the export stops early
	const tiles = 4
	for i := int64(1); i <= tiles; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, err := fmt.Fprintf(w, "tile %d\n", i); err != nil { // ... cut a quarter of the tiles ...
			return nil, err
		}
		if err := out.Progress(i, tiles); err != nil {
			return nil, err // aborted, or the lease was lost: stop
		}
	}
	info, err := w.Commit()
	if err != nil {
		return nil, err
	}
	return []exporttask.Artifact{{Name: name, Type: exporttask.ArtifactGPKG, Size: info.Size, SHA256: info.SHA256}}, nil
}

// memOutput keeps the files in memory and prints progress; a worker's
// Output writes to its artifact store instead.
type memOutput struct{ files map[string]*bytes.Buffer }

func (o memOutput) Create(_ context.Context, name string) (artifact.Writer, error) {
	return &memWriter{out: o, name: name, h: sha256.New()}, nil
}

func (o memOutput) Progress(done, total int64) error {
	fmt.Printf("progress %d/%d\n", done, total)
	return nil
}

type memWriter struct {
	out  memOutput
	name string
	buf  bytes.Buffer
	h    hash.Hash
}

func (w *memWriter) Write(p []byte) (int, error) {
	w.h.Write(p)
	return w.buf.Write(p)
}

func (w *memWriter) Commit() (artifact.Info, error) {
	w.out.files[w.name] = &w.buf
	return artifact.Info{Key: w.name, Size: int64(w.buf.Len()), SHA256: hex.EncodeToString(w.h.Sum(nil))}, nil
}

func (w *memWriter) Abort() error { return nil }

// An Exporter does the work behind the tasks. Give yours to
// server.Config.Exporter (or worker.RunnerConfig.Exporter); here it is
// called directly, as a worker would.
func ExampleExporter() {
	var exp export.Exporter = tileExporter{bytesPerKm2: 2048}
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
	out := memOutput{files: map[string]*bytes.Buffer{}}
	artifacts, err := exp.Export(ctx, task, out)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range artifacts {
		fmt.Println(a.Type, a.Name, a.Size, out.files[a.Name].Len())
	}
	// Output:
	// estimate: 21590016 bytes, 60 s
	// progress 1/4
	// progress 2/4
	// progress 3/4
	// progress 4/4
	// GPKG harbour.gpkg 28 28
}
