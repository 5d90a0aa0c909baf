package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

func TestAreaIsTheROIClippedToTheFootprint(t *testing.T) {
	rec := catalog.Record{ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32)}

	j, err := export.NewJob(rec, exporttask.CreateRequest{})
	require.NoError(t, err)
	assert.Same(t, rec.Footprint, j.Area(), "no ROI: the footprint")

	// A square reaching past the east edge, with a hole inside.
	outer := []exporttask.Position{{34.5, 31.5}, {35.5, 31.5}, {35.5, 31.8}, {34.5, 31.8}, {34.5, 31.5}}
	hole := []exporttask.Position{{34.6, 31.6}, {34.7, 31.6}, {34.7, 31.7}, {34.6, 31.7}, {34.6, 31.6}}
	j, err = export.NewJob(rec, exporttask.CreateRequest{ROI: roi(exporttask.NewPolygon(outer, hole))})
	require.NoError(t, err)
	a := j.Area()
	require.Equal(t, exporttask.TypePolygon, a.Type)
	require.Len(t, a.Polygon, 2)
	for _, p := range a.Polygon[0] {
		assert.LessOrEqual(t, p[0], 35.0)
		assert.GreaterOrEqual(t, p[0], 34.5)
	}
	assert.Contains(t, a.Polygon[0], exporttask.Position{35, 31.5})
	assert.Contains(t, a.Polygon[0], exporttask.Position{35, 31.8})
	assert.Equal(t, a.Polygon[0][0], a.Polygon[0][len(a.Polygon[0])-1], "closed")
	assert.Equal(t, hole, a.Polygon[1], "a hole inside the box is kept as it is")

	// Two polygons, one outside the footprint's box: one is left.
	far := exporttask.NewMultiPolygon(
		[][]exporttask.Position{{{34.1, 31.1}, {34.2, 31.1}, {34.2, 31.2}, {34.1, 31.1}}},
		[][]exporttask.Position{{{40, 40}, {41, 40}, {41, 41}, {40, 40}}})
	j, err = export.NewJob(rec, exporttask.CreateRequest{ROI: roi(far)})
	require.NoError(t, err)
	assert.Equal(t, exporttask.TypePolygon, j.Area().Type)
}
