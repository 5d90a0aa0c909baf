package browsertest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	viewer "github.com/openapi-viewer/viewer"
	"github.com/openapi-viewer/viewer/exporttask"
)

// TestExportTaskDocsShowOperationsFirst: on the export task API's docs
// page, the first operation is on the first screen (1280×1000), not
// below pages of introduction.
func TestExportTaskDocsShowOperationsFirst(t *testing.T) {
	browser := startBrowser(t)
	srv := serve(t, viewer.Config{FilePathOrSpec: exporttask.OpenAPI(), UIPath: "/docs"})
	tb := newTab(t, browser, 60*time.Second)
	tb.load(t, srv.URL+"/docs/")
	var pos struct {
		Top    float64 `json:"top"`
		Screen float64 `json:"screen"`
	}
	tb.eval(t, `({top: document.querySelector(".swagger-ui .opblock").getBoundingClientRect().top, screen: window.innerHeight})`, &pos)
	assert.Positive(t, pos.Screen)
	assert.Less(t, pos.Top, pos.Screen, "the first operation starts %.0f px down a %.0f px screen", pos.Top, pos.Screen)
}
