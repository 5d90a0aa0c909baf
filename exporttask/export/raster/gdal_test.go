package raster_test

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// gdalInfo is the part of `gdalinfo -json` these tests read.
type gdalInfo struct {
	DriverShortName  string `json:"driverShortName"`
	Size             []int  `json:"size"`
	CoordinateSystem struct {
		WKT string `json:"wkt"`
	} `json:"coordinateSystem"`
	CornerCoordinates struct {
		UpperLeft  [2]float64 `json:"upperLeft"`
		LowerRight [2]float64 `json:"lowerRight"`
	} `json:"cornerCoordinates"`
	Metadata map[string]map[string]string `json:"metadata"`
	Bands    []struct {
		Overviews []struct {
			Size []int `json:"size"`
		} `json:"overviews"`
	} `json:"bands"`
}

// TestGDALReadsTheExport checks an export with readers this module did not
// write: gdalinfo (GDAL's GPKG driver) and the sqlite3 shell. ogrinfo is
// GDAL's vector tool: it refuses a GeoPackage that holds only tiles.
func TestGDALReadsTheExport(t *testing.T) {
	gdalinfo := requireTool(t, "gdalinfo")
	sqlite3 := requireTool(t, "sqlite3")

	rec := fixture(t)
	roi := square(34.3, 31.2, 34.7, 31.6)
	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(roi)}))
	path := artifactPath(t, out, arts, exporttask.ArtifactGPKG)

	raw, err := exec.Command(gdalinfo, "-json", path).Output()
	require.NoError(t, err, "gdalinfo")
	var info gdalInfo
	require.NoError(t, json.Unmarshal(raw, &info))
	assert.Equal(t, "GPKG", info.DriverShortName)
	assert.Contains(t, info.CoordinateSystem.WKT, `ID["EPSG",4326]`)

	// The extent is the ROI's box, to one tile of the deepest level.
	tile := 180 / float64(int(1)<<fixtureMax)
	ul, lr := info.CornerCoordinates.UpperLeft, info.CornerCoordinates.LowerRight
	assert.InDelta(t, 34.3, ul[0], tile, "west")
	assert.InDelta(t, 31.6, ul[1], tile, "north")
	assert.InDelta(t, 34.7, lr[0], tile, "east")
	assert.InDelta(t, 31.2, lr[1], tile, "south")
	assert.GreaterOrEqual(t, ul[0], 34.3-tile)
	assert.LessOrEqual(t, lr[0], 34.7+tile)

	// GDAL opens the deepest level, with the shallower ones as overviews.
	assert.Equal(t, strconv.Itoa(fixtureMax), info.Metadata[""]["ZOOM_LEVEL"])
	require.NotEmpty(t, info.Bands)
	assert.NotEmpty(t, info.Bands[0].Overviews)

	// Every level opens on its own.
	for z := fixtureMin; z <= fixtureMax; z++ {
		raw, err := exec.Command(gdalinfo, "-json", "-oo", "ZOOM_LEVEL="+strconv.Itoa(z), path).Output()
		require.NoError(t, err, "gdalinfo level %d", z)
		var lv gdalInfo
		require.NoError(t, json.Unmarshal(raw, &lv))
		assert.Equal(t, strconv.Itoa(z), lv.Metadata[""]["ZOOM_LEVEL"])
	}

	raw, err = exec.Command(sqlite3, "-readonly", path,
		"PRAGMA application_id; PRAGMA user_version; PRAGMA integrity_check; "+
			"SELECT group_concat(zoom_level) FROM (SELECT zoom_level FROM gpkg_tile_matrix ORDER BY zoom_level); "+
			"SELECT srs_id FROM gpkg_spatial_ref_sys ORDER BY srs_id;").CombinedOutput()
	require.NoError(t, err, "sqlite3: %s", raw)
	assert.Equal(t, []string{"1196444487", "10200", "ok", "5,6,7,8,9", "-1", "0", "4326"},
		strings.Fields(string(raw)))
}
