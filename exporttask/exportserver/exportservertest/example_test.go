package exportservertest_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/exportserver/exportservertest"
)

func TestStartServesHealth(t *testing.T) {
	dir := t.TempDir()
	url := exportservertest.Start(t, "-addr", "127.0.0.1:0", "-db", ":memory:", "-exporter", "simulate",
		"-artifacts", filepath.Join(dir, "files"), "-scratch", filepath.Join(dir, "scratch"))
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %d", resp.StatusCode)
	}
}

// In a test: url := exportservertest.Start(t, "-addr", "127.0.0.1:0",
// "-db", ":memory:") runs the reference server until the test ends.
func ExampleStart() {
	fmt.Println(`exportservertest.Start(t, "-addr", "127.0.0.1:0", "-db", ":memory:")`)
	// Output: exportservertest.Start(t, "-addr", "127.0.0.1:0", "-db", ":memory:")
}
