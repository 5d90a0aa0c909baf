package raster_test

import (
	"image"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
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

// TestThumbnailPlacesTheSourceWhereItIs draws the whole footprint and a
// small box inside it: each pixel of the small box's thumbnail shows what
// the whole one shows at the same longitude and latitude (the demo relief
// changes little over one pixel of the whole one), so the picture is not
// shifted or stretched.
func TestThumbnailPlacesTheSourceWhereItIs(t *testing.T) {
	rec := fixture(t)
	decode := func(out *testout.Dir, arts []exporttask.Artifact) image.Image {
		f, err := os.Open(artifactPath(t, out, arts, exporttask.ArtifactThumbnailsLarge))
		require.NoError(t, err)
		defer f.Close()
		img, err := png.Decode(f)
		require.NoError(t, err)
		return img
	}
	whole := decode(exportTo(t, job(t, rec, exporttask.CreateRequest{})))
	require.Equal(t, image.Rect(0, 0, 512, 512), whole.Bounds(), "lon 34–35, lat 31–32")
	box := [4]float64{34.6013, 31.2017, 34.7371, 31.2883}
	part := decode(exportTo(t, job(t, rec, exporttask.CreateRequest{ROI: jobtest.Rect(box[0], box[1], box[2], box[3])})))
	pw, ph := part.Bounds().Dx(), part.Bounds().Dy()
	var worst float64
	for y := 2; y < ph; y += ph / 8 {
		for x := 2; x < pw; x += pw / 8 {
			lon := box[0] + (float64(x)+0.5)*(box[2]-box[0])/float64(pw)
			lat := box[3] - (float64(y)+0.5)*(box[3]-box[1])/float64(ph)
			r1, g1, b1, _ := part.At(x, y).RGBA()
			r2, g2, b2, _ := whole.At(int((lon-34)*512), int((32-lat)*512)).RGBA()
			for _, d := range []float64{float64(r1) - float64(r2), float64(g1) - float64(g2), float64(b1) - float64(b2)} {
				worst = math.Max(worst, math.Abs(d)/257)
			}
		}
	}
	assert.Less(t, worst, 5.0, "largest channel difference, of 255 (2 as written; a shift by 0.03° gives 10)")
}
