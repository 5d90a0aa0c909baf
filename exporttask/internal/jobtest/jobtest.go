package jobtest

import (
	"fmt"
	"image"
	"os"
	"sync"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// DemoFootprint returns the demo records' footprint: lon 34–35, lat 31–32.
func DemoFootprint() *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}})
}

// Triangle returns a region of interest of one triangle inside the demo
// footprint: (34.2, 31.2), (34.5, 31.2), (34.2, 31.45); its box is 0.3° by
// 0.25° and the triangle fills half of it, the south-west half.
func Triangle() *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type:     exporttask.TypeFeature,
		Geometry: exporttask.NewPolygon([]exporttask.Position{{34.2, 31.2}, {34.5, 31.2}, {34.2, 31.45}, {34.2, 31.2}}),
	}}}
}

// Job builds the job of exporting rec with the region of interest roi (nil
// for the whole record) with export.NewJob, failing the test when NewJob
// refuses it.
func Job(t testing.TB, rec catalog.Record, roi *exporttask.FeatureCollection) export.Job {
	t.Helper()
	j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi})
	if err != nil {
		t.Fatalf("jobtest: %v", err)
	}
	return j
}

// WithParameters returns j built again, with export.NewJob, for the same
// record and request but the export parameters params.
func WithParameters(t testing.TB, j export.Job, params map[string]any) export.Job {
	t.Helper()
	r := j.Request()
	r.Parameters = params
	j, err := export.NewJob(j.Record(), r)
	if err != nil {
		t.Fatalf("jobtest: %v", err)
	}
	return j
}

// Files lists the names in dir.
func Files(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("jobtest: %v", err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// StopAfter wraps an output so that its Progress answers err after the
// first n calls, as an abort in the middle of an export would.
func StopAfter(out *testout.Dir, n int, err error) export.Output {
	return &stopAfter{Dir: out, n: n, err: err}
}

type stopAfter struct {
	*testout.Dir
	mu    sync.Mutex
	n     int
	calls int
	err   error
}

func (s *stopAfter) Progress(done, total int64) error {
	s.mu.Lock()
	s.calls++
	stop := s.calls > s.n
	s.mu.Unlock()
	if stop {
		return s.err
	}
	return s.Dir.Progress(done, total)
}

// Rect returns a region of interest of one rectangle, [west, east] by
// [south, north] in degrees.
func Rect(west, south, east, north float64) *exporttask.FeatureCollection {
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature,
		Geometry: exporttask.NewPolygon([]exporttask.Position{
			{west, south}, {east, south}, {east, north}, {west, north}, {west, south}}),
	}}}
}

// ClearEdges returns the pixels of img's first and last rows and columns
// that are not fully opaque, as "top x=3"-style entries (side, then the
// pixel's position along it), for a test to require that a thumbnail
// covers its box edge to edge.
func ClearEdges(img image.Image) []string {
	b := img.Bounds()
	var out []string
	check := func(side string, along, x, y int) {
		if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
			out = append(out, fmt.Sprintf("%s%d (alpha %d/65535)", side, along, a))
		}
	}
	for x := b.Min.X; x < b.Max.X; x++ {
		check("top x=", x, x, b.Min.Y)
		check("bottom x=", x, x, b.Max.Y-1)
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		check("left y=", y, b.Min.X, y)
		check("right y=", y, b.Max.X-1, y)
	}
	return out
}
