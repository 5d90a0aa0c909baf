package register_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// run runs a tool in dir, skipping the test when the tool is missing (or
// failing it when VIEWER_TEST_REQUIRE_GDAL=1).
func run(t *testing.T, dir, tool string, args ...string) {
	t.Helper()
	cmd := exec.Command(gdaltest.Require(t, tool), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %q in %s:\n%s", tool, args, dir, out)
}

// heights writes dir/heights.asc, an ASCII grid of 120 × 90 heights over
// lon 34–35, lat 31.25–32 (no CRS), and returns its path.
func heights(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	const w, h = 120, 90
	fmt.Fprintf(&b, "ncols %d\nnrows %d\nxllcorner 34\nyllcorner 31.25\ncellsize %.17g\nNODATA_value -9999\n", w, h, 1.0/w)
	for y := range h {
		for x := range w {
			fmt.Fprintf(&b, "%d ", int(300+200*math.Sin(float64(x)/9)*math.Cos(float64(y)/7)))
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(dir, "heights.asc")
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

// picture writes dir/picture.tif, an RGB GeoTIFF in EPSG:4326 that GDAL
// colours from the heights, and returns its path.
func picture(t *testing.T, dir string) string {
	t.Helper()
	dem := filepath.Join(dir, "picture-heights.tif")
	run(t, dir, "gdal_translate", "-q", "-a_srs", "EPSG:4326", heights(t, dir), dem)
	colors := filepath.Join(dir, "colors.txt")
	require.NoError(t, os.WriteFile(colors, []byte("0 20 60 20\n300 200 180 120\n600 250 250 250\n"), 0o644))
	p := filepath.Join(dir, "picture.tif")
	run(t, dir, "gdaldem", "color-relief", "-q", dem, colors, p)
	return p
}

// backticked matches a command in a refusal's text.
var backticked = regexp.MustCompile("`([^`]+)`")

// words splits a command as a POSIX shell would, for the quoting
// catalog.ShellQuote writes: plain words and single-quoted parts.
func words(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			require.NotContains(t, `"$*?;&|<>()`+"`", string(c), "an unquoted shell character in %q", s)
			cur.WriteByte(c)
			inWord = true
		}
	}
	require.False(t, quoted, "an unterminated quote in %q", s)
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// TestRefusalsCarryCommandsThatWork: for each kind of source that catalog
// add refuses, made here with GDAL, the refusal is one line whose fix
// holds commands (in backticks, naming the user's own file); run in
// order in the source's directory, they write a file that catalog add
// then accepts.
func TestRefusalsCarryCommandsThatWork(t *testing.T) {
	gdaltest.Require(t, "gdal_translate")
	dem := func(args ...string) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "elevation.tif")
			if i := len(args) - 1; i >= 0 && strings.HasPrefix(args[i], "name=") {
				p = filepath.Join(dir, strings.TrimPrefix(args[i], "name="))
				args = args[:i]
			}
			run(t, dir, "gdal_translate", append(append([]string{"-q"}, args...), heights(t, dir), p)...)
			return p
		}
	}
	gpkg := func(scheme string) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "ortho.gpkg")
			args := []string{"-q", "-of", "GPKG"}
			if scheme != "" {
				args = append(args, "-co", "TILING_SCHEME="+scheme)
			}
			run(t, dir, "gdal_translate", append(args, picture(t, dir), p)...)
			return p
		}
	}
	tiles := func(args ...string) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "ortho tiles") // a name a shell must quote
			run(t, dir, "gdal2tiles.py", append(append([]string{"-q", "--processes=1", "-z", "5-7"}, args...), picture(t, dir), p)...)
			return p
		}
	}
	cases := []struct {
		name    string
		make    func(t *testing.T, dir string) string // the refused source, in dir
		domain  exporttask.Domain
		scheme  string
		problem string   // in the refusal's problem
		fix     []string // in its fix
		out     string   // the file the commands write, beside the source
		outAs   exporttask.Domain
	}{
		{name: "DEM in a projection without an EPSG code", domain: exporttask.DomainDEM,
			make:    dem("-ot", "Int16", "-a_nodata", "none", "-a_srs", "+proj=eck4 +datum=WGS84 +units=m", "-a_ullr", "3000000", "3700000", "3100000", "3600000"),
			problem: "CRS", fix: []string{"gdalwarp -t_srs EPSG:4326", "-dstnodata -32768", "elevation.tif elevation_dem.tif"},
			out: "elevation_dem.tif", outAs: exporttask.DomainDEM},
		{name: "DEM on another ellipsoid", domain: exporttask.DomainDEM,
			make:    dem("-ot", "Float32", "-a_nodata", "-9999", "-a_srs", "+proj=longlat +a=6378000 +b=6378000 +no_defs"),
			problem: "CRS", fix: []string{"gdalwarp", "-dstnodata -9999"}, out: "elevation_dem.tif", outAs: exporttask.DomainDEM},
		{name: "DEM without a CRS", domain: exporttask.DomainDEM, make: dem("-ot", "Int16", "-a_ullr", "34", "32", "35", "31.25"),
			problem: "no CRS", fix: []string{"gdal_edit.py -a_srs EPSG:4326 elevation.tif"}, out: "elevation.tif", outAs: exporttask.DomainDEM},
		{name: "RGB given as DEM", domain: exporttask.DomainDEM,
			make:    dem("-ot", "Byte", "-b", "1", "-b", "1", "-b", "1", "-co", "PHOTOMETRIC=RGB", "-a_srs", "EPSG:4326"),
			problem: "3 bands", fix: []string{"gdal_translate -b 1 elevation.tif elevation_dem.tif"}, out: "elevation_dem.tif", outAs: exporttask.DomainDEM},
		{name: "paletted picture given as DEM", domain: exporttask.DomainDEM,
			make: func(t *testing.T, dir string) string {
				p := filepath.Join(dir, "map.tif")
				run(t, dir, "rgb2pct.py", "-n", "16", picture(t, dir), p)
				return p
			},
			problem: "paletted", fix: []string{"gdal_translate -expand gray map.tif map_dem.tif"}, out: "map_dem.tif", outAs: exporttask.DomainDEM},
		{name: "JPEG-compressed DEM", domain: exporttask.DomainDEM,
			make:    dem("-ot", "Byte", "-co", "COMPRESS=JPEG", "-a_srs", "EPSG:4326"),
			problem: "JPEG", fix: []string{"COMPRESS=DEFLATE elevation.tif elevation_dem.tif"}, out: "elevation_dem.tif", outAs: exporttask.DomainDEM},
		{name: "complex samples", domain: exporttask.DomainDEM, make: dem("-ot", "CInt16", "-a_srs", "EPSG:4326"),
			problem: "complex integer", fix: []string{"-ot Float32"}, out: "elevation_dem.tif", outAs: exporttask.DomainDEM},
		{name: "not a TIFF", domain: exporttask.DomainDEM, make: dem("-of", "HFA", "-ot", "Int16", "-a_srs", "EPSG:4326", "name=elevation.img"),
			problem: "not a TIFF", fix: []string{"gdal_translate -of COG", "elevation.img elevation_dem.tif"}, out: "elevation_dem.tif", outAs: exporttask.DomainDEM},
		{name: "every pixel nodata", domain: exporttask.DomainDEM,
			make: func(t *testing.T, dir string) string {
				p := filepath.Join(dir, "flat.tif")
				run(t, dir, "gdal_create", "-q", "-outsize", "40", "30", "-ot", "Int16", "-burn", "7", "-a_nodata", "7",
					"-a_srs", "EPSG:4326", "-a_ullr", "34", "32", "35", "31.25", p)
				return p
			},
			problem: "every pixel is nodata", fix: []string{"gdal_edit.py -unsetnodata flat.tif"}, out: "flat.tif", outAs: exporttask.DomainDEM},

		{name: "GeoTIFF heights given as RASTER", domain: exporttask.DomainRaster, make: dem("-ot", "Int16", "-a_srs", "EPSG:4326"),
			problem: "is not imagery", fix: []string{"-domain DEM", "-ot Byte -scale"}, out: "elevation_image.tif", outAs: exporttask.DomainRaster},
		{name: "vector GeoPackage", domain: exporttask.DomainRaster,
			make: func(t *testing.T, dir string) string {
				js := filepath.Join(dir, "parcels.geojson")
				require.NoError(t, os.WriteFile(js, []byte(`{"type":"FeatureCollection","features":[`+
					`{"type":"Feature","properties":{"name":"a"},"geometry":{"type":"Polygon","coordinates":[[[34.1,31.3],[34.9,31.3],[34.9,31.9],[34.1,31.3]]]}},`+
					`{"type":"Feature","properties":{"name":"b"},"geometry":{"type":"Polygon","coordinates":[[[34.2,31.8],[34.3,31.8],[34.3,31.9],[34.2,31.8]]]}}]}`), 0o644))
				p := filepath.Join(dir, "parcels.gpkg")
				run(t, dir, "ogr2ogr", "-f", "GPKG", p, js)
				return p
			},
			problem: "holds features (vector layers parcels)", fix: []string{"gdal_rasterize", "parcels.gpkg parcels_raster.tif",
				"gdal_translate -of GPKG -co TILING_SCHEME=InspireCRS84Quad parcels_raster.tif parcels_tiles.gpkg"},
			out: "parcels_tiles.gpkg", outAs: exporttask.DomainRaster},
		{name: "Web Mercator GeoPackage", domain: exporttask.DomainRaster, make: gpkg("GoogleMapsCompatible"),
			problem: "Web Mercator", fix: []string{"gdal_translate -of GPKG -co TILING_SCHEME=InspireCRS84Quad -oo TABLE=ortho ortho.gpkg ortho_4326.gpkg"},
			out: "ortho_4326.gpkg", outAs: exporttask.DomainRaster},
		{name: "GeoPackage on its own grid", domain: exporttask.DomainRaster, make: gpkg(""),
			problem: "tile matrix set", fix: []string{"ortho.gpkg ortho_4326.gpkg"}, out: "ortho_4326.gpkg", outAs: exporttask.DomainRaster},
		{name: "gdal2tiles mercator TMS", domain: exporttask.DomainRaster, make: tiles("-p", "mercator"),
			problem: "Web Mercator", fix: []string{"<GDAL_WMS>", "'ortho tiles_4326.gpkg'"}, out: "ortho tiles_4326.gpkg", outAs: exporttask.DomainRaster},
		{name: "gdal2tiles mercator XYZ", domain: exporttask.DomainRaster, scheme: register.SchemeXYZ, make: tiles("-p", "mercator", "--xyz"),
			problem: "Web Mercator", fix: []string{"<YOrigin>top</YOrigin>"}, out: "ortho tiles_4326.gpkg", outAs: exporttask.DomainRaster},
		{name: "gdal2tiles geodetic, one tile at level 0, TMS", domain: exporttask.DomainRaster, make: tiles("-p", "geodetic"),
			problem: "one tile at level 0", fix: []string{"<YOrigin>bottom</YOrigin>"}, out: "ortho tiles_4326.gpkg", outAs: exporttask.DomainRaster},
		{name: "gdal2tiles geodetic, one tile at level 0, XYZ", domain: exporttask.DomainRaster, scheme: register.SchemeXYZ,
			make:    tiles("-p", "geodetic", "--xyz"),
			problem: "one tile at level 0", fix: []string{"<YOrigin>top</YOrigin>"}, out: "ortho tiles_4326.gpkg", outAs: exporttask.DomainRaster},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			cat := filepath.Join(t.TempDir(), "catalog")
			src := c.make(t, dir)
			_, err := register.Add(ctx, cat, src, register.Options{Domain: c.domain, Scheme: c.scheme})
			var se *export.SourceError
			require.True(t, errors.As(err, &se), "refused with a SourceError: %v", err)
			msg := se.Error()
			t.Log(msg)
			assert.NotContains(t, msg, "\n", "one line")
			assert.Contains(t, se.Problem, c.problem)
			for _, f := range c.fix {
				assert.Contains(t, se.Fix, f)
			}
			cmds := backticked.FindAllStringSubmatch(se.Fix, -1)
			require.NotEmpty(t, cmds, "the fix gives a command: %s", se.Fix)
			for _, m := range cmds {
				argv := words(t, m[1])
				run(t, filepath.Dir(src), argv[0], argv[1:]...)
			}
			out := filepath.Join(filepath.Dir(src), c.out)
			rec, err := register.Add(ctx, cat, out, register.Options{Domain: c.outAs})
			require.NoError(t, err, "the commands' output registers")
			assert.Equal(t, out, rec.Source.Path)
		})
	}
}
