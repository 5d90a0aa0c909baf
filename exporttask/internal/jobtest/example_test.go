package jobtest_test

import (
	"fmt"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

func ExampleJob() {
	rec := catalog.Record{ID: "r", Domain: exporttask.DomainDEM, Footprint: jobtest.DemoFootprint()}
	j := jobtest.Job(&testing.T{}, rec, jobtest.Triangle())
	fmt.Printf("%.2f %.2f %.2f %.2f\n", j.Box().West, j.Box().South, j.Box().East, j.Box().North)
	fmt.Println(j.Contains(34.25, 31.25), j.Contains(34.45, 31.4))
	// Output:
	// 34.20 31.20 34.50 31.45
	// true false
}
