package stactest

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Item is a METADATA Item as a test reads it.
type Item struct {
	Type           string           `json:"type"`
	STACVersion    string           `json:"stac_version"`
	STACExtensions []string         `json:"stac_extensions"`
	ID             string           `json:"id"`
	Geometry       json.RawMessage  `json:"geometry"`
	BBox           []float64        `json:"bbox"`
	Properties     map[string]any   `json:"properties"`
	Links          []map[string]any `json:"links"`
	Assets         map[string]Asset `json:"assets"`
}

// Asset is one asset of an [Item].
type Asset struct {
	Href         string   `json:"href"`
	Type         string   `json:"type"`
	Roles        []string `json:"roles"`
	FileSize     int64    `json:"file:size"`
	FileChecksum string   `json:"file:checksum"`
	// ProjShape and ProjTransform are the projection extension's grid of
	// a raster asset, when it has one.
	ProjShape     []int     `json:"proj:shape"`
	ProjTransform []float64 `json:"proj:transform"`
}

// Property returns the domain property name, without its "exporttask:"
// prefix, failing the test when the Item lacks it.
func (it Item) Property(t testing.TB, name string) any {
	t.Helper()
	v, ok := it.Properties["exporttask:"+name]
	require.True(t, ok, "properties has no exporttask:%s", name)
	return v
}

// The extensions an Item declares, and the multihash prefix of SHA-256.
const (
	projExtension = "https://stac-extensions.github.io/projection/v1.1.0/schema.json"
	fileExtension = "https://stac-extensions.github.io/file/v2.1.0/schema.json"
	sha256Prefix  = "1220"
)

// rfc3339 is the date-time form STAC's datetime takes (RFC 3339, section
// 5.6), which the JSON Schemas check with "format": "date-time".
var rfc3339 = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)

// Check reads raw, a METADATA file, and checks it as a STAC 1.0.0 Item
// with the file and projection extensions whose assets are exactly arts,
// the export's other files (a METADATA file cannot list its own checksum).
// Each failed check names the member by its JSON Pointer. It returns the
// Item.
func Check(t testing.TB, raw []byte, arts []exporttask.Artifact) Item {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m), "METADATA is a JSON object")
	var it Item
	require.NoError(t, json.Unmarshal(raw, &it), "METADATA decodes as an Item")

	// item-spec: the required members and their types.
	for _, k := range []string{"type", "stac_version", "id", "geometry", "bbox", "properties", "links", "assets"} {
		assert.Contains(t, m, k, "/%s is required", k)
	}
	assert.Equal(t, "Feature", m["type"], "/type")
	assert.Equal(t, "1.0.0", m["stac_version"], "/stac_version")
	id, _ := m["id"].(string)
	assert.NotEmpty(t, id, "/id is a non-empty string")
	if exts, ok := m["stac_extensions"].([]any); assert.True(t, ok, "/stac_extensions is an array") {
		for i, e := range exts {
			s, _ := e.(string)
			assert.True(t, strings.HasPrefix(s, "https://"), "/stac_extensions/%d is a URI: %v", i, e)
		}
	}
	assert.Contains(t, it.STACExtensions, projExtension, "/stac_extensions")
	assert.Contains(t, it.STACExtensions, fileExtension, "/stac_extensions")

	// bbox: 2D, west <= east, south <= north, in degrees.
	require.Len(t, it.BBox, 4, "/bbox has 4 numbers")
	b := it.BBox
	assert.True(t, b[0] <= b[2] && b[1] <= b[3], "/bbox %v: west <= east, south <= north", b)
	assert.True(t, b[0] >= -180 && b[2] <= 180 && b[1] >= -90 && b[3] <= 90, "/bbox %v in degrees", b)
	checkGeometry(t, it.Geometry, b)

	// properties: datetime is required (no start/end given); created is a
	// date-time too.
	props, ok := m["properties"].(map[string]any)
	require.True(t, ok, "/properties is an object")
	dt, _ := props["datetime"].(string)
	assert.Regexp(t, rfc3339, dt, "/properties/datetime is an RFC 3339 date-time")
	_, err := time.Parse(time.RFC3339Nano, dt)
	assert.NoError(t, err, "/properties/datetime")
	if c, ok := props["created"]; ok {
		assert.Regexp(t, rfc3339, c, "/properties/created")
	}
	// projection v1.1.0: proj:epsg is required, an integer or null.
	assert.Equal(t, 4326.0, props["proj:epsg"], "/properties/proj:epsg")
	for k := range props {
		if i := strings.IndexByte(k, ':'); i > 0 {
			assert.Contains(t, []string{"proj", "exporttask"}, k[:i], "/properties/%s: a prefix no declared extension defines", k)
		}
	}

	// links: an array of objects with href and rel.
	links, ok := m["links"].([]any)
	assert.True(t, ok, "/links is an array")
	for i, l := range links {
		lm, _ := l.(map[string]any)
		assert.NotEmpty(t, lm["href"], "/links/%d/href", i)
		assert.NotEmpty(t, lm["rel"], "/links/%d/rel", i)
	}

	// assets: one per other artifact, each with href, a role, and the file
	// extension's size and checksum (the extension requires at least one
	// file: member in assets).
	rawAssets, ok := m["assets"].(map[string]any)
	require.True(t, ok, "/assets is an object")
	assert.Len(t, rawAssets, len(arts), "/assets: one per artifact but METADATA")
	for _, a := range arts {
		ptr := "/assets/" + strings.ReplaceAll(strings.ReplaceAll(a.Name, "~", "~0"), "/", "~1")
		ra, ok := rawAssets[a.Name].(map[string]any)
		if !assert.True(t, ok, "%s is an object", ptr) {
			continue
		}
		assert.IsType(t, "", ra["href"], "%s/href is a string", ptr)
		assert.IsType(t, 0.0, ra["file:size"], "%s/file:size is a number", ptr)
		asset := it.Assets[a.Name]
		assert.Equal(t, a.Name, asset.Href, "%s/href: relative to the METADATA file", ptr)
		require.Len(t, asset.Roles, 1, "%s/roles", ptr)
		assert.Contains(t, []string{"data", "thumbnail", "metadata"}, asset.Roles[0], "%s/roles/0", ptr)
		assert.NotEmpty(t, asset.Type, "%s/type", ptr)
		assert.Equal(t, a.Size, asset.FileSize, "%s/file:size", ptr)
		assert.Equal(t, sha256Prefix+a.SHA256, asset.FileChecksum, "%s/file:checksum", ptr)
		if _, ok := ra["proj:shape"]; ok {
			assert.Len(t, asset.ProjShape, 2, "%s/proj:shape is [height, width]", ptr)
			assert.Contains(t, []int{6, 9}, len(asset.ProjTransform), "%s/proj:transform has 6 or 9 numbers", ptr)
		}
		sum, err := hex.DecodeString(asset.FileChecksum)
		if assert.NoError(t, err, "%s/file:checksum is hex", ptr) && assert.Len(t, sum, 34, "%s/file:checksum: 2-byte header and 32 bytes", ptr) {
			assert.Equal(t, []byte{0x12, 0x20}, sum[:2], "%s/file:checksum: the multihash of SHA2-256", ptr)
		}
	}
	return it
}

// checkGeometry checks the Item's geometry: a GeoJSON Polygon or
// MultiPolygon whose closed rings lie within bbox b.
func checkGeometry(t testing.TB, raw json.RawMessage, b []float64) {
	t.Helper()
	var g struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	}
	require.NoError(t, json.Unmarshal(raw, &g), "/geometry is a GeoJSON geometry")
	var polys [][][][2]float64
	switch g.Type {
	case "Polygon":
		var p [][][2]float64
		require.NoError(t, json.Unmarshal(g.Coordinates, &p), "/geometry/coordinates")
		polys = append(polys, p)
	case "MultiPolygon":
		require.NoError(t, json.Unmarshal(g.Coordinates, &polys), "/geometry/coordinates")
	default:
		t.Fatalf("/geometry/type is %q, not Polygon or MultiPolygon", g.Type)
	}
	require.NotEmpty(t, polys, "/geometry/coordinates")
	const eps = 1e-9
	for i, p := range polys {
		require.NotEmpty(t, p, "/geometry polygon %d has rings", i)
		for j, r := range p {
			ptr := fmt.Sprintf("/geometry polygon %d ring %d", i, j)
			require.GreaterOrEqual(t, len(r), 4, ptr)
			assert.Equal(t, r[0], r[len(r)-1], "%s is closed", ptr)
			for _, q := range r {
				if q[0] < b[0]-eps || q[0] > b[2]+eps || q[1] < b[1]-eps || q[1] > b[3]+eps {
					t.Errorf("%s: position %v outside /bbox %v", ptr, q, b)
					break
				}
			}
		}
	}
}
