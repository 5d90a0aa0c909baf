package tiles3d

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

// TestThumbnailsCoverASmallROIEdgeToEdge exports small rectangles inside
// the demo footprint, whose mesh has no holes, meeting the tiles' edges
// nowhere: every pixel of each thumbnail's edge rows and columns is
// opaque, at each size.
func TestThumbnailsCoverASmallROIEdgeToEdge(t *testing.T) {
	rec := demoRecord(t)
	for _, box := range [][4]float64{
		{34.40131, 31.50173, 34.43717, 31.52839},
		{34.6137, 31.2071, 34.6149, 31.2213},
		{34.1001, 31.1001, 34.8999, 31.8999},
	} {
		dir, arts, _ := exported(t, job(t, rec, jobtest.Rect(box[0], box[1], box[2], box[3])))
		for _, a := range arts {
			if a.Type != exporttask.ArtifactThumbnailsSmall && a.Type != exporttask.ArtifactThumbnailsMedium &&
				a.Type != exporttask.ArtifactThumbnailsLarge {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, a.Name))
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(b))
			require.NoError(t, err)
			assert.Empty(t, jobtest.ClearEdges(img), "%v %s %v: edge pixels not opaque", box, a.Type, img.Bounds())
		}
	}
}
