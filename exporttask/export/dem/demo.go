package dem

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
	"github.com/openapi-viewer/viewer/exporttask/internal/terrain"
)

// DemoFile is the name of the GeoTIFF [WriteDemoSource] writes.
const DemoFile = "demo.tif"

// NoData is the nodata value of the demo GeoTIFF.
const NoData = -32768

// maxDemoPixels bounds the demo GeoTIFF (about 1 GB in Float32).
const maxDemoPixels = 1 << 28

// WriteDemoSource writes dir/demo.tif, a DEM of the demo landscape
// (terrain.Elevation) for rec: a Cloud Optimized GeoTIFF in EPSG:4326,
// Float32 heights in meters, tiled 256×256 with Deflate, GDAL_NODATA
// -32768, covering the bounding box of rec's footprint at rec.Resolution
// degrees per pixel (width round((east-west)/resolution), height likewise).
// Each pixel holds the terrain at its centre, or NoData when the centre is
// outside the footprint. At 1/1200° a 1°×1° footprint is 1200×1200 pixels.
// The file appears whole or not at all. Register it with [Inspect] (the
// catalog's add command does) to make the record's Source.
func WriteDemoSource(dir string, rec catalog.Record) error {
	fp, err := export.FromGeometry(rec.Footprint)
	if err != nil {
		return fmt.Errorf("dem: record %s footprint: %w", rec.ID, err)
	}
	box := fp.BBox()
	if box.Empty() {
		return fmt.Errorf("dem: record %s footprint is empty", rec.ID)
	}
	res := rec.Resolution
	if !(res > 0) || math.IsInf(res, 0) {
		return fmt.Errorf("dem: record %s resolution %v is not a positive number of degrees", rec.ID, res)
	}
	w, h := math.Round(box.Width()/res), math.Round(box.Height()/res)
	if w < 1 || h < 1 || w*h > maxDemoPixels {
		return fmt.Errorf("dem: record %s grid of %.0fx%.0f pixels is out of range", rec.ID, w, h)
	}
	img := cog.Image{
		Width: int(w), Height: int(h), BitsPerSample: 32, SampleFormat: 3,
		West: box.West, North: box.North, PixelWidth: res, PixelHeight: res,
		NoData: strconv.Itoa(NoData), BlockSize: 256,
	}
	tmp, err := os.CreateTemp(dir, ".demo-*.tif")
	if err != nil {
		return fmt.Errorf("dem: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	rows := func(y int, buf []byte) error {
		lat := box.North - (float64(y)+0.5)*res
		for x := range img.Width {
			lon := box.West + (float64(x)+0.5)*res
			v := float32(NoData)
			if fp.ContainsPoint(lon, lat) {
				v = float32(terrain.Elevation(lon, lat))
			}
			binary.LittleEndian.PutUint32(buf[4*x:], math.Float32bits(v))
		}
		return nil
	}
	if _, err := cog.Write(context.Background(), tmp, img, rows, dir, nil); err != nil {
		tmp.Close()
		return fmt.Errorf("dem: writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("dem: writing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, DemoFile)); err != nil {
		return fmt.Errorf("dem: %w", err)
	}
	return nil
}
