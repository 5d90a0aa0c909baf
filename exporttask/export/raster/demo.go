package raster

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/terrain"
)

// WriteDemoSource writes the source of a demo RASTER record into dir (see
// [WriteSource]): a shaded relief of the demo terrain, lit from the north
// west and tinted by height, as 256×256 PNG tiles at levels
// rec.MinZoom..rec.MaxZoom over rec.Footprint; pixels outside the footprint
// are transparent. For the demo footprint (1°×1°, lon 34–35, lat 31–32)
// levels 0..11 make 246 tiles, written in about 5 s on a busy 2-core
// machine (levels 0..10: 77 tiles).
func WriteDemoSource(dir string, rec catalog.Record) error {
	fp, err := export.FromGeometry(rec.Footprint)
	if err != nil {
		return fmt.Errorf("raster: record %s: footprint: %w", rec.ID, err)
	}
	_, err = WriteSource(dir, rec, func(z int, col, row int64) ([]byte, error) {
		return hillshadeTile(fp, z, col, row)
	})
	return err
}

// The light of the shaded relief: azimuth 315° (north west), 45° high.
var (
	lightX = -math.Cos(math.Pi/4) * math.Sin(math.Pi/4)
	lightY = math.Cos(math.Pi/4) * math.Cos(math.Pi/4)
	lightZ = math.Sin(math.Pi / 4)
)

// hillshadeTile renders tile (col, row) of level z, or nil when none of
// its pixels is in fp.
func hillshadeTile(fp geom.MultiPolygon, z int, col, row int64) ([]byte, error) {
	const n = TileSize + 2 // a pixel of margin for the gradient
	box := tileBox(z, col, row)
	p := pixelDegrees(z)
	elev := make([]float64, n*n)
	for j := range n {
		lat := box.North - (float64(j)-0.5)*p
		for i := range n {
			elev[j*n+i] = terrain.Elevation(box.West+(float64(i)-0.5)*p, lat)
		}
	}
	img := image.NewNRGBA(image.Rect(0, 0, TileSize, TileSize))
	inside := false
	for j := range TileSize {
		lat := box.North - (float64(j)+0.5)*p
		metersX := 2 * p * 111320 * math.Cos(lat*math.Pi/180) / exaggeration
		metersY := 2 * p * 110540 / exaggeration
		for i := range TileSize {
			lon := box.West + (float64(i)+0.5)*p
			if !fp.ContainsPoint(lon, lat) {
				continue
			}
			inside = true
			c := (j+1)*n + i + 1
			dzdx := (elev[c+1] - elev[c-1]) / metersX
			dzdy := (elev[c-n] - elev[c+n]) / metersY // rows go south
			norm := math.Sqrt(dzdx*dzdx + dzdy*dzdy + 1)
			shade := math.Max(0, (-dzdx*lightX-dzdy*lightY+lightZ)/norm)
			img.SetNRGBA(i, j, tint(elev[c], 0.35+0.65*shade))
		}
	}
	if !inside {
		return nil, nil
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// exaggeration steepens the relief for the shading: the demo hills are
// gentle.
const exaggeration = 40

// tint colours height h (meters) from green lowlands through tan slopes to
// pale tops, darkened by shade (0..1).
func tint(h, shade float64) color.NRGBA {
	ramp := [3][3]float64{{86, 140, 70}, {190, 165, 110}, {245, 240, 230}}
	t := math.Min(math.Max(h/1000, 0), 1) * 2
	a, b := ramp[0], ramp[1]
	if t > 1 {
		a, b, t = ramp[1], ramp[2], t-1
	}
	c := func(i int) uint8 { return uint8((a[i] + (b[i]-a[i])*t) * shade) }
	return color.NRGBA{R: c(0), G: c(1), B: c(2), A: 255}
}
