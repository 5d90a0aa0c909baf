package exportserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

const (
	square = `{"type":"Polygon","coordinates":[[[34,31],[35,31],[35,32],[34,32],[34,31]]]}`
	bowtie = `{"type":"Polygon","coordinates":[[[34,31],[35,32],[35,31],[34,32],[34,31]]]}`
)

func writeGeoJSON(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fp.geojson")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestReadFootprint(t *testing.T) {
	one := exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}})
	cases := map[string]string{
		"geometry": square,
		"feature":  `{"type":"Feature","properties":{"name":"x"},"geometry":` + square + `}`,
		"collection with ogr2ogr members": `{"type":"FeatureCollection","name":"fp","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},` +
			`"features":[{"type":"Feature","properties":{},"geometry":` + square + `}]}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			g, err := readFootprint(writeGeoJSON(t, content))
			require.NoError(t, err)
			assert.Equal(t, one, g)
		})
	}
	g, err := readFootprint(writeGeoJSON(t, `{"type":"FeatureCollection","features":[`+
		`{"type":"Feature","properties":null,"geometry":`+square+`},`+
		`{"type":"Feature","properties":null,"geometry":{"type":"MultiPolygon","coordinates":[[[[36,31],[37,31],[37,32],[36,32],[36,31]]]]}}]}`))
	require.NoError(t, err)
	require.Equal(t, exporttask.TypeMultiPolygon, g.Type)
	assert.Len(t, g.MultiPolygon, 2, "the polygons of every feature")
}

func TestReadFootprintErrorsNameFileAndPointer(t *testing.T) {
	cases := map[string]struct{ content, want string }{
		"not JSON":        {`{`, "not a GeoJSON object"},
		"point":           {`{"type":"Point","coordinates":[1,2]}`, `/type: must be Polygon, MultiPolygon, Feature or FeatureCollection, got "Point"`},
		"feature no geom": {`{"type":"Feature","properties":{},"geometry":null}`, "/geometry: a Polygon or MultiPolygon is required"},
		"feature line":    {`{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}`, `/geometry/type: must be Polygon or MultiPolygon, got "LineString"`},
		"empty":           {`{"type":"FeatureCollection","features":[]}`, "/features: holds no Feature"},
		"not a feature":   {`{"type":"FeatureCollection","features":[` + square + `]}`, "/features/0: must be a Feature"},
		"bowtie":          {`{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":` + square + `},{"type":"Feature","properties":{},"geometry":` + bowtie + `}]}`, "/features/1/geometry/coordinates/0"},
		"bowtie geometry": {bowtie, "fp.geojson: /coordinates/0: a linear ring must not cross or touch itself"},
		"open ring":       {`{"type":"Polygon","coordinates":[[[34,31],[35,31],[35,32],[34,32]]]}`, "/coordinates/0"},
		"latitude":        {`{"type":"Polygon","coordinates":[[[34,31],[35,31],[35,95],[34,32],[34,31]]]}`, "/coordinates/0/2/1"},
		"nesting":         {`{"type":"Polygon","coordinates":[[34,31]]}`, "(root): decoding the coordinates of a Polygon"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := writeGeoJSON(t, c.content)
			_, err := readFootprint(p)
			require.Error(t, err)
			assert.ErrorContains(t, err, p+": ")
			assert.ErrorContains(t, err, c.want)
		})
	}
	_, err := readFootprint(filepath.Join(t.TempDir(), "nope.geojson"))
	assert.ErrorContains(t, err, "nope.geojson")
}
