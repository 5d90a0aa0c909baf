package dem

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/terrain"
)

// WriteDemoSource writes the record's elevation grid into dir by sampling
// the demo landscape (terrain.Elevation) at each pixel's centre over the
// footprint's bounding box at rec.Resolution. Pixels whose centre is outside
// the footprint get NoData. At 1/1200° a 1°×1° footprint is 1200×1200
// pixels, 5.8 MB. The file appears whole or not at all.
func WriteDemoSource(dir string, rec exporttask.Record) error {
	g, err := gridOf(rec)
	if err != nil {
		return fmt.Errorf("dem: %w", err)
	}
	fp, _ := footprintOf(rec) // gridOf has checked it
	tmp, err := os.CreateTemp(dir, ".elevation-*")
	if err != nil {
		return fmt.Errorf("dem: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	bw := bufio.NewWriterSize(tmp, 1<<16)
	var b [4]byte
	for r := range g.height {
		lat := g.lat(r)
		for c := range g.width {
			v := float32(NoData)
			if lon := g.lon(c); fp.ContainsPoint(lon, lat) {
				v = float32(terrain.Elevation(lon, lat))
			}
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("dem: writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("dem: writing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, SourceFile)); err != nil {
		return fmt.Errorf("dem: %w", err)
	}
	return nil
}
