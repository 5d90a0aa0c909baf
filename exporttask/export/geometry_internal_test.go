package export

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

func TestFromROI(t *testing.T) {
	fc := &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{
		{Type: exporttask.TypeFeature, Geometry: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 31}})},
	}}
	m, err := FromROI(fc)
	require.NoError(t, err)
	assert.Equal(t, geom.BBox{West: 34, South: 31, East: 35, North: 32}, m.BBox())

	none, err := FromROI(nil)
	require.NoError(t, err)
	assert.Nil(t, none)

	_, err = FromGeometry(&exporttask.Geometry{Type: "Point"})
	assert.Error(t, err)
}
