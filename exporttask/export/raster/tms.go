package raster

import (
	"encoding/xml"
	"fmt"
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// tileMap is the part of a tilemapresource.xml (OSGeo TMS 1.0, as
// gdal2tiles writes it) this package reads.
type tileMap struct {
	XMLName     xml.Name `xml:"TileMap"`
	Title       string   `xml:"Title"`
	SRS         string   `xml:"SRS"`
	BoundingBox struct {
		MinX float64 `xml:"minx,attr"`
		MinY float64 `xml:"miny,attr"`
		MaxX float64 `xml:"maxx,attr"`
		MaxY float64 `xml:"maxy,attr"`
	} `xml:"BoundingBox"`
	TileFormat struct {
		Width     int    `xml:"width,attr"`
		Height    int    `xml:"height,attr"`
		Extension string `xml:"extension,attr"`
	} `xml:"TileFormat"`
	TileSets struct {
		Profile string `xml:"profile,attr"`
		Sets    []struct {
			Href          string  `xml:"href,attr"`
			UnitsPerPixel float64 `xml:"units-per-pixel,attr"`
			Order         int     `xml:"order,attr"`
		} `xml:"TileSet"`
	} `xml:"TileSets"`
}

// readTileMap reads and decodes the tilemapresource.xml of the directory
// root, of at most maxTileMapBytes. A missing file is an error wrapping
// fs.ErrNotExist.
func readTileMap(root *sourcefs.Root) (*tileMap, error) {
	b, err := root.ReadFile(TileMapResource, maxTileMapBytes)
	if err != nil {
		return nil, err
	}
	var tm tileMap
	if err := xml.Unmarshal(b, &tm); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", TileMapResource, err)
	}
	return &tm, nil
}

// bbox returns the BoundingBox of the tile map.
func (tm *tileMap) bbox() geom.BBox {
	b := tm.BoundingBox
	return geom.BBox{West: b.MinX, South: b.MinY, East: b.MaxX, North: b.MaxY}
}

// gdal2tiles writes two geodetic grids, and the same tilemapresource.xml
// for both (GDAL 3.6 writes units-per-pixel = 0.703125/2^z either way):
//
//   - with --tmscompatible (-d): two tiles at level 0, 0.703125° per
//     pixel, the grid of this package;
//   - without it: one tile at level 0, 1.40625° per pixel (its level z is
//     this package's level z-1, and its level 0 tile reaches latitude 270).
//
// Only the tiles' numbers tell them apart: the tiles gdal2tiles writes at a
// level are those meeting the data's BoundingBox on the grid it used.
const (
	gridTMSCompatible = iota + 1 // this package's grid
	gridOneTileAtZero            // gdal2tiles' default geodetic grid
)

// geodeticGrids returns which of the two grids (a set of the constants
// above) agrees with the tiles found at level z, columns c0..c1 and TMS
// rows y0..y1 (file rows, 0 at the bottom), given the data's box: on that
// grid, the tiles' extent meets the box and lies within it grown by one
// tile on every side.
func geodeticGrids(box geom.BBox, z int, c0, c1, y0, y1 int64) []int {
	var fits []int
	for _, g := range []int{gridTMSCompatible, gridOneTileAtZero} {
		d := 180 / math.Ldexp(1, z)
		if g == gridOneTileAtZero {
			d *= 2
		}
		ext := geom.BBox{West: -180 + float64(c0)*d, East: -180 + float64(c1+1)*d,
			South: -90 + float64(y0)*d, North: -90 + float64(y1+1)*d}
		grown := geom.BBox{West: box.West - d, South: box.South - d, East: box.East + d, North: box.North + d}
		meets := ext.West < box.East && box.West < ext.East && ext.South < box.North && box.South < ext.North
		within := ext.West >= grown.West && ext.East <= grown.East && ext.South >= grown.South && ext.North <= grown.North
		if meets && within {
			fits = append(fits, g)
		}
	}
	return fits
}
