package raster

import (
	"context"
	"database/sql"
	"fmt"
	"html"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// The commands that the refusals of a RASTER source suggest name the
// user's own files by their base names, and write their result beside
// the source under a name made from it: each can be run as it is in the
// source's directory, and its output registered.

// command returns args as one shell command in backticks, each argument
// quoted where a shell needs it.
func command(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = catalog.ShellQuote(a)
	}
	return "`" + strings.Join(q, " ") + "`"
}

// fixName is the base name of the file a suggested command writes from
// the source path: its base name without extension, then suffix.
func fixName(path, suffix string) string {
	name := filepath.Base(path)
	return strings.TrimSuffix(name, filepath.Ext(name)) + suffix
}

// tileFix is the fix that tiles a raster GDAL reads (the file in, by its
// base name, with the extra gdal_translate arguments) into a GeoPackage
// on the EPSG:4326 grid with its overviews.
func tileFix(in, out string, extra ...string) string {
	args := append([]string{"gdal_translate", "-of", "GPKG", "-co", "TILING_SCHEME=InspireCRS84Quad"}, extra...)
	args = append(args, in, out)
	return command(args...) + " then " + command("gdaladdo", out)
}

// gpkgFix is the fix of a GeoPackage of tiles that are not on the
// EPSG:4326 grid: GDAL reprojects its table onto it.
func gpkgFix(path, table string) string {
	var extra []string
	if table != "" {
		extra = []string{"-oo", "TABLE=" + table}
	}
	return "rebuild it on the EPSG:4326 grid with " + tileFix(filepath.Base(path), fixName(path, "_4326.gpkg"), extra...)
}

// tiffMagic reports whether the header h is a TIFF's (classic or BigTIFF,
// either byte order).
func tiffMagic(h []byte) bool {
	for _, m := range []string{"II*\x00", "MM\x00*", "II+\x00", "MM\x00+"} {
		if strings.HasPrefix(string(h), m) {
			return true
		}
	}
	return false
}

// vectorSourceError is the refusal of a GeoPackage of features: GDAL
// draws them into an image (at most 2048 pixels wide or high, over the
// features' extent) and tiles it.
func vectorSourceError(ctx context.Context, db *sql.DB, path string) error {
	rows, err := db.QueryContext(ctx, `SELECT table_name, min_x, min_y, max_x, max_y FROM gpkg_contents
		WHERE data_type = 'features' ORDER BY table_name`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var layers []string
	w, s, e, n := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for rows.Next() {
		var name string
		var x0, y0, x1, y1 sql.NullFloat64
		if err := rows.Scan(&name, &x0, &y0, &x1, &y1); err != nil {
			return nil
		}
		layers = append(layers, name)
		if x0.Valid && y0.Valid && x1.Valid && y1.Valid {
			w, s, e, n = min(w, x0.Float64), min(s, y0.Float64), max(e, x1.Float64), max(n, y1.Float64)
		}
	}
	if rows.Err() != nil || len(layers) == 0 {
		return nil
	}
	width, height := 2048, 2048
	if e > w && n > s {
		if r := (n - s) / (e - w); r < 1 {
			height = max(1, int(math.Round(2048*r)))
		} else {
			width = max(1, int(math.Round(2048/r)))
		}
	}
	img := fixName(path, "_raster.tif")
	problem := fmt.Sprintf("holds features (vector layers %s), not tiles: a RASTER record is a pyramid of image tiles "+
		"on the EPSG:4326 grid", strings.Join(layers, ", "))
	fix := "draw the features into an image with " + command("gdal_rasterize", "-burn", "255", "-ot", "Byte", "-a_nodata", "0",
		"-ts", fmt.Sprint(width), fmt.Sprint(height), filepath.Base(path), img) +
		", then tile it with " + tileFix(img, fixName(path, "_tiles.gpkg"))
	return &export.SourceError{File: path, Problem: problem, Fix: fix}
}

// The grids of gdal2tiles directories that wmsFix reads with GDAL.
const (
	// wmsMercator is gdal2tiles -p mercator: EPSG:3857, one tile at level 0.
	wmsMercator = iota
	// wmsOneTile is gdal2tiles -p geodetic without --tmscompatible:
	// EPSG:4326, one tile of 360° × 360° at level 0, anchored at the
	// south-west corner of the world (-180, -90).
	wmsOneTile
)

// mercatorHalf is half the width of the Web Mercator world, in metres.
const mercatorHalf = 20037508.342789244

// wmsFix is the fix of a gdal2tiles directory on another grid than this
// package's (grid: wmsMercator or wmsOneTile): GDAL reads the tiles
// themselves through its WMS driver (an XML description given as the
// dataset name; missing tiles are empty), over the box its finest level's
// tiles cover, and tiles that onto the EPSG:4326 grid. Without tiles to
// bound the box there is nothing to suggest but rebuilding (fallback).
func wmsFix(dir string, src *source, grid int, fallback string) string {
	levels, err := dirLevels(src.root)
	if err != nil || len(levels) == 0 || src.ext == "" {
		return fallback
	}
	z := slices.Max(levels)
	if z > MaxLevel {
		return fallback
	}
	c0, c1, r0, r1 := int64(math.MaxInt64), int64(-1), int64(math.MaxInt64), int64(-1)
	err = src.walkLevel(z, func(col, row int64, _ string, _ int64) error {
		c0, c1, r0, r1 = min(c0, col), max(c1, col), min(r0, row), max(r1, row)
		return nil
	}, func(int64) bool { return true })
	if err != nil || c1 < 0 {
		return fallback
	}
	// The world the level-0 tile spans, and the tile's size at level z.
	west, south, span, srs := -mercatorHalf, -mercatorHalf, 2*mercatorHalf, "EPSG:3857"
	if grid == wmsOneTile {
		west, south, span, srs = -180, -90, 360, "EPSG:4326"
	}
	north := south + span // --xyz numbers the same tiles from this top
	t := span / math.Ldexp(1, z)
	// File rows count from the bottom (TMS) or the top (XYZ).
	yOrigin, top, bottom := "bottom", south+float64(r1+1)*t, south+float64(r0)*t
	if src.format == FormatXYZ {
		yOrigin, top, bottom = "top", north-float64(r0)*t, north-float64(r1+1)*t
	}
	bands := 4
	if e := strings.ToLower(src.ext); e == "jpg" || e == "jpeg" {
		bands = 3
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fallback
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	xml := "<GDAL_WMS><Service name=\"TMS\"><ServerUrl>" + html.EscapeString((&url.URL{Scheme: "file", Path: abs}).String()) +
		"/${z}/${x}/${y}." + src.ext + "</ServerUrl></Service>" +
		"<DataWindow><UpperLeftX>" + g(west) + "</UpperLeftX><UpperLeftY>" + g(north) + "</UpperLeftY>" +
		"<LowerRightX>" + g(west+span) + "</LowerRightX><LowerRightY>" + g(south) + "</LowerRightY>" +
		"<TileLevel>" + strconv.Itoa(z) + "</TileLevel><TileCountX>1</TileCountX><TileCountY>1</TileCountY>" +
		"<YOrigin>" + yOrigin + "</YOrigin></DataWindow><Projection>" + srs + "</Projection>" +
		"<BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY><BandsCount>" + strconv.Itoa(bands) + "</BandsCount>" +
		"<ZeroBlockHttpCodes>204,404</ZeroBlockHttpCodes></GDAL_WMS>"
	out := filepath.Base(abs) + "_4326.gpkg"
	xyz := ""
	if src.format == FormatXYZ {
		xyz = " --xyz"
	}
	x0, x1 := west+float64(c0)*t, west+float64(c1+1)*t
	return "convert its tiles with " + command("gdal_translate", "-of", "GPKG", "-co", "TILING_SCHEME=InspireCRS84Quad",
		"-projwin", g(x0), g(top), g(x1), g(bottom), xml, out) + " then " + command("gdaladdo", out) +
		" (GDAL reads the tiles through its WMS driver), or rebuild it from its image with gdal2tiles.py -p geodetic --tmscompatible" + xyz
}
