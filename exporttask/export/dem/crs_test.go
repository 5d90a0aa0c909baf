package dem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// wgs84Extent returns the bounding box of `gdalinfo -json`'s wgs84Extent
// polygon of path as west, south, east, north.
func wgs84Extent(t *testing.T, path string) [4]float64 {
	t.Helper()
	var d struct {
		Extent struct {
			Coordinates [][][2]float64 `json:"coordinates"`
		} `json:"wgs84Extent"`
	}
	require.NoError(t, json.Unmarshal([]byte(gdalRun(t, "gdalinfo", "-json", path)), &d))
	require.NotEmpty(t, d.Extent.Coordinates, "gdalinfo gives no wgs84Extent for %s", path)
	b := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range d.Extent.Coordinates[0] {
		b = [4]float64{min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[0]), max(b[3], p[1])}
	}
	return b
}

// TestProjectedSourcesRegister registers DEMs that gdalwarp made in
// several CRSs (UTM north and south, Web Mercator, a national TM grid, LCC
// grids in metres and US survey feet, NAD27 UTM) and compares their
// footprints with gdalinfo's wgs84Extent: within one source pixel. Their
// whole footprints export, warped to EPSG:4326 (TestWarpAgainstGDAL
// compares warped pixels with gdalwarp's).
func TestProjectedSourcesRegister(t *testing.T) {
	asc := heightsGrid(t, "Int16", "")
	cases := []struct {
		name, srs   string
		west, north float64 // of the EPSG:4326 grid warped into srs (0.3° × 0.2°)
		wantCRS     string
	}{
		{"utm north", "EPSG:32636", 34.1, 31.4, "EPSG:32636 (WGS 84 / UTM zone 36N)"},
		{"utm south", "EPSG:32736", 34.1, -31.2, "EPSG:32736 (WGS 84 / UTM zone 36S)"},
		{"web mercator", "EPSG:3857", 34.1, 31.4, "EPSG:3857 (WGS 84 / Pseudo-Mercator)"},
		{"israeli tm", "EPSG:2039", 34.8, 31.9, "EPSG:2039 (Israel 1993 / Israeli TM Grid)"},
		{"lambert-93", "EPSG:2154", 2.1, 46.4, "EPSG:2154 (RGF93 v1 / Lambert-93)"},
		{"state plane ftUS", "EPSG:2227", -120.6, 37.5, "EPSG:2227 (NAD83 / California zone 3 (ftUS))"},
		{"nad27 utm", "EPSG:26711", -117.5, 35.0, "EPSG:26711 (NAD27 / UTM zone 11N)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ll := makeSource(t, asc, "ll.tif", "-ot", "Int16",
				"-a_ullr", fmt.Sprint(c.west), fmt.Sprint(c.north), fmt.Sprint(c.west+0.3), fmt.Sprint(c.north-0.2))
			src := filepath.Join(t.TempDir(), "dem.tif")
			gdalRun(t, "gdalwarp", "-q", "-t_srs", c.srs, "-dstnodata", "-32768", "-co", "TILED=YES", ll, src)

			rec, err := Inspect(context.Background(), catalog.Source{Path: src})
			require.NoError(t, err)
			want := wgs84Extent(t, src)
			got := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
			for _, p := range rec.Footprint.Polygon[0] {
				got = [4]float64{min(got[0], p[0]), min(got[1], p[1]), max(got[2], p[0]), max(got[3], p[1])}
			}
			// One source pixel in degrees: the warped grid keeps about the
			// 0.001° of the original, which Resolution approximates.
			assert.InDelta(t, 0.001, rec.Resolution, 0.0002, "resolution")
			for i, side := range []string{"west", "south", "east", "north"} {
				assert.InDelta(t, want[i], got[i], rec.Resolution, "%s: footprint %v, gdalinfo wgs84Extent %v", side, got, want)
			}

			rec.ID, rec.Location = demoID, t.TempDir()
			dir := t.TempDir()
			arts, err := New(Options{}).Export(context.Background(), job(t, rec, nil), testout.New(dir))
			require.NoError(t, err)
			d := infoOf(t, filepath.Join(dir, arts[0].Name))
			assert.Contains(t, d.CoordinateSystem.WKT, `ID["EPSG",4326]`, "warped to EPSG:4326 (%s)", c.wantCRS)
		})
	}
}

// TestRefusedCRSFixWorks runs the gdalwarp command a refusal of an
// unsupported CRS suggests and registers its output.
func TestRefusedCRSFixWorks(t *testing.T) {
	asc := heightsGrid(t, "Int16", "")
	for _, srs := range []string{"EPSG:3035", "+proj=tmerc +lat_0=31 +lon_0=34 +k=1 +ellps=GRS80 +units=m +no_defs"} {
		t.Run(strings.Fields(srs)[0], func(t *testing.T) {
			ll := makeSource(t, asc, "ll.tif", "-ot", "Int16", "-a_nodata", "-7")
			dir := t.TempDir()
			src := filepath.Join(dir, "src.tif")
			gdalRun(t, "gdalwarp", "-q", "-t_srs", srs, ll, src)
			_, err := Inspect(context.Background(), catalog.Source{Path: src})
			var se *export.SourceError
			require.True(t, errors.As(err, &se), "%v", err)
			m := regexp.MustCompile("`(gdalwarp [^`]*)`").FindStringSubmatch(se.Fix)
			require.NotNil(t, m, "a gdalwarp command in %q", se.Fix)
			args := strings.Fields(m[1])[1:]
			assert.Equal(t, []string{"-t_srs", "EPSG:4326", "-r", "bilinear", "-dstnodata", "-7", "src.tif", "src_dem.tif"}, args)
			for i, a := range args {
				args[i] = filepath.Join(dir, a)
				if !strings.HasSuffix(a, ".tif") {
					args[i] = a
				}
			}
			gdalRun(t, "gdalwarp", append([]string{"-q"}, args...)...)
			rec, err := Inspect(context.Background(), catalog.Source{Path: filepath.Join(dir, "src_dem.tif")})
			require.NoError(t, err)
			assert.Equal(t, exporttask.DomainDEM, rec.Domain)
		})
	}
}
