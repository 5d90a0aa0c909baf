package raster_test

import (
	"image/png"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

// TestThumbnailsCoverASmallROIEdgeToEdge exports small rectangles that
// meet the source pixels' grid nowhere, inside the footprint (where the
// demo source has no holes): every pixel of each thumbnail's edge rows and
// columns is opaque, at each size.
func TestThumbnailsCoverASmallROIEdgeToEdge(t *testing.T) {
	rec := fixture(t)
	for _, box := range [][4]float64{
		{34.40131, 31.50173, 34.43717, 31.52839}, // about 26 by 19 pixels of the deepest level
		{34.6137, 31.2071, 34.6149, 31.2213},     // one pixel wide, tall
		{34.1001, 31.1001, 34.8999, 31.8999},     // large: averaged down
	} {
		j := job(t, rec, exporttask.CreateRequest{ROI: jobtest.Rect(box[0], box[1], box[2], box[3])})
		out, arts := exportTo(t, j)
		for _, typ := range []exporttask.ArtifactType{exporttask.ArtifactThumbnailsSmall,
			exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge} {
			f, err := os.Open(artifactPath(t, out, arts, typ))
			require.NoError(t, err)
			img, err := png.Decode(f)
			f.Close()
			require.NoError(t, err)
			assert.Empty(t, jobtest.ClearEdges(img), "%v %s %v: edge pixels not opaque", box, typ, img.Bounds())
		}
	}
}
