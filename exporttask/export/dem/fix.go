package dem

import (
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// The commands that the refusals of a DEM source suggest write their
// result beside the source, named after it (see fixOutput), so that each
// can be run as it is in the source's directory and its output registered.

// fixOutput is the file a suggested command writes: the source's base
// name without its extension, with "_dem.tif", never the source itself.
func fixOutput(name string) string {
	return strings.TrimSuffix(name, filepath.Ext(name)) + "_dem.tif"
}

// command returns args as one shell command in backticks, each argument
// quoted where a shell needs it.
func command(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = catalog.ShellQuote(a)
	}
	return "`" + strings.Join(q, " ") + "`"
}

// reprojectFix is the fix of a source that must be warped to EPSG:4326:
// gdalwarp with a nodata value for the corners the warp leaves empty
// (the source's own, else one its sample type cannot confuse with a
// height), so that they do not become heights of 0.
func reprojectFix(name string, f *geotiff.File) string {
	return "reproject it with " + command("gdalwarp", "-t_srs", "EPSG:4326", "-r", "bilinear",
		"-dstnodata", warpNoData(f), name, fixOutput(name))
}

// warpNoData is the -dstnodata of reprojectFix: the source's nodata, or
// the one its export would declare ([DefaultNoData]).
func warpNoData(f *geotiff.File) string {
	if f.HasNoData && f.NoData != "" {
		return f.NoData
	}
	t, _ := f.SampleType()
	return DefaultNoData(t)
}

// assignCRSFix is the fix of a source without a CRS.
func assignCRSFix(name string) string {
	return "if its coordinates are WGS 84 longitude/latitude, set its CRS with " +
		command("gdal_edit.py", "-a_srs", "EPSG:4326", name) +
		" (for other coordinates, give their EPSG code instead, then reproject)"
}

// bandFix is the fix of a source of several bands.
func bandFix(name string) string {
	return "a DEM has one band of heights: extract it with " + command("gdal_translate", "-b", "1", name, fixOutput(name))
}

// paletteFix is the fix of a paletted image.
func paletteFix(name string) string {
	return "a DEM has one band of heights: register the elevation data the picture was drawn from; " +
		"to register the picture's grey levels as heights, expand it with " +
		command("gdal_translate", "-expand", "gray", name, fixOutput(name))
}

// sampleTypeFix is the fix of samples this reader does not decode.
func sampleTypeFix(name string) string {
	return "convert the heights with " + command("gdal_translate", "-ot", "Float32", name, fixOutput(name))
}

// compressionFix is the fix of a compression this reader does not decode.
func compressionFix(name string) string {
	return "rewrite it with " + command("gdal_translate", "-of", "COG", "-co", "COMPRESS=DEFLATE", name, fixOutput(name))
}

// convertFix is the fix of a file that is not a TIFF.
func convertFix(name string) string {
	return "convert it to a GeoTIFF with " + command("gdal_translate", "-of", "COG", "-co", "COMPRESS=DEFLATE", name, fixOutput(name))
}

// allNoDataFix is the fix of a source whose every pixel is nodata.
func allNoDataFix(name string) string {
	return "check the nodata value with " + command("gdalinfo", "-stats", name) +
		"; if the value is a height, unset it with " + command("gdal_edit.py", "-unsetnodata", name)
}
