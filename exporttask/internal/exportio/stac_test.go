package exportio_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// TestNewItemHasTheMembersSTACRequires checks the Item against the
// required members of STAC 1.0.0's item-spec and of the file and
// projection extensions, member by member, as its JSON reads.
func TestNewItemHasTheMembersSTACRequires(t *testing.T) {
	rec := catalog.Record{ID: "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60", Domain: exporttask.DomainDEM, Title: "Demo"}
	area := exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 31}})
	item := exportio.NewItem(exportio.ItemParams{
		Record: rec, Area: area, BBox: geom.BBox{West: 34, South: 31, East: 35, North: 32},
		Time: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
		Artifacts: []exporttask.Artifact{
			{Name: "x.tif", Type: exporttask.ArtifactModel, Size: 10, SHA256: "ab"},
			{Name: "thumbnail-small.png", Type: exporttask.ArtifactThumbnailsSmall, Size: 3, SHA256: "cd"},
			{Name: "roi.geojson", Type: exporttask.ArtifactROI, Size: 2, SHA256: "ef"},
		},
		Properties: map[string]any{"resolution": 0.001},
	})
	b, err := json.Marshal(item)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))

	assert.Equal(t, "Feature", m["type"])
	assert.Equal(t, "1.0.0", m["stac_version"])
	assert.Equal(t, "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60-20261123T100000.000Z", m["id"])
	assert.Equal(t, []any{34.0, 31.0, 35.0, 32.0}, m["bbox"])
	assert.Equal(t, "Polygon", m["geometry"].(map[string]any)["type"])
	assert.Equal(t, []any{}, m["links"])
	assert.Len(t, m["stac_extensions"], 2)
	props := m["properties"].(map[string]any)
	assert.Equal(t, "2026-11-23T10:00:00Z", props["datetime"])
	assert.Equal(t, 4326.0, props["proj:epsg"])
	assert.Equal(t, "DEM", props["exporttask:domain"])
	assert.Equal(t, 0.001, props["exporttask:resolution"])
	assets := m["assets"].(map[string]any)
	require.Len(t, assets, 3)
	tif := assets["x.tif"].(map[string]any)
	assert.Equal(t, "x.tif", tif["href"])
	assert.Equal(t, []any{"data"}, tif["roles"])
	assert.Equal(t, 10.0, tif["file:size"])
	assert.Equal(t, "1220ab", tif["file:checksum"], "a SHA-256 multihash")
	assert.Equal(t, []any{"thumbnail"}, assets["thumbnail-small.png"].(map[string]any)["roles"])
	assert.Equal(t, []any{"metadata"}, assets["roi.geojson"].(map[string]any)["roles"])
	assert.Equal(t, []string{"roi.geojson", "thumbnail-small.png", "x.tif"}, item.AssetNames())
	assert.NotContains(t, tif, "proj:shape", "no grid given")
}

// TestNewItemGivesTheGridOnTheDataAssets checks proj:shape and
// proj:transform: on the data asset only, [height, width], and the
// transform taking pixel (0, 0) to the top-left corner and (width,
// height) to the bottom-right one.
func TestNewItemGivesTheGridOnTheDataAssets(t *testing.T) {
	item := exportio.NewItem(exportio.ItemParams{
		Record: catalog.Record{ID: "r", Domain: exporttask.DomainDEM}, BBox: geom.BBox{West: 34, South: 31, East: 34.5, North: 31.25},
		Area: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {34.5, 31}, {34.5, 31.25}, {34, 31}}),
		Time: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
		Artifacts: []exporttask.Artifact{
			{Name: "r.tif", Type: exporttask.ArtifactModel, Size: 10, SHA256: "ab"},
			{Name: "roi.geojson", Type: exporttask.ArtifactROI, Size: 2, SHA256: "ef"},
		},
		Grid: &exportio.Grid{Width: 200, Height: 100, West: 34, North: 31.25, PixelWidth: 0.0025, PixelHeight: 0.0025},
	})
	b, err := json.Marshal(item)
	require.NoError(t, err)
	var m struct {
		Assets map[string]map[string]any `json:"assets"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	tif := m.Assets["r.tif"]
	assert.Equal(t, []any{100.0, 200.0}, tif["proj:shape"])
	tr := tif["proj:transform"].([]any)
	require.Len(t, tr, 6)
	at := func(col, row float64) (float64, float64) {
		return tr[0].(float64)*col + tr[1].(float64)*row + tr[2].(float64), tr[3].(float64)*col + tr[4].(float64)*row + tr[5].(float64)
	}
	x, y := at(0, 0)
	assert.Equal(t, [2]float64{34, 31.25}, [2]float64{x, y})
	x, y = at(200, 100)
	assert.InDelta(t, 34.5, x, 1e-12)
	assert.InDelta(t, 31, y, 1e-12)
	assert.NotContains(t, m.Assets["roi.geojson"], "proj:shape")
}
