package testkit_test

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// Sample requests are valid and differ by their catalog record.
func ExampleSampleRequestTo() {
	a := testkit.SampleRequestTo(1, "https://hooks.example.com/a")
	b := testkit.SampleRequestTo(2, "https://hooks.example.com/a")
	fmt.Println(a.Validate(), b.Validate())
	fmt.Println(a.CatalogRecordID)
	fmt.Println(b.CatalogRecordID)
	// Output:
	// <nil> <nil>
	// 8b867544-2dab-43a1-be6e-000000000001
	// 8b867544-2dab-43a1-be6e-000000000002
}
