package tiles3d

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
	"github.com/openapi-viewer/viewer/exporttask/internal/terrain"
)

// maxDemoTiles bounds the tiles WriteDemoSource writes, so a record with
// too many levels fails fast instead of filling the disk.
const maxDemoTiles = 5000

// metersPerDegree is the length of a degree of latitude, roughly.
const metersPerDegree = 111320.0

// WriteDemoSource writes the record's tileset into dir/tileset: a root
// over the footprint's bounding box without content, and below it a
// quadtree of the EPSG:4326 grid's tiles from rec.MinZoom to rec.MaxZoom
// that meet the footprint, each holding a glTF mesh of the demo landscape
// (terrain.Elevation) over the tile's part of the footprint's box. With
// levels 7 to 10 the demo footprint (lon 34–35, lat 31–32) makes 1 + 70
// tiles, about 2.7 MB. The directory is replaced whole, or left alone on
// error.
func WriteDemoSource(dir string, rec catalog.Record) error {
	fp, err := export.FromGeometry(rec.Footprint)
	if err != nil {
		return fmt.Errorf("tiles3d: record %s footprint: %w", rec.ID, err)
	}
	box := fp.BBox()
	if box.Empty() || box.Width() == 0 || box.Height() == 0 {
		return fmt.Errorf("tiles3d: record %s footprint has no area", rec.ID)
	}
	if rec.MinZoom < 0 || rec.MaxZoom < rec.MinZoom || rec.MaxZoom > 24 {
		return fmt.Errorf("tiles3d: record %s levels %d to %d are not 0 ≤ minZoom ≤ maxZoom ≤ 24", rec.ID, rec.MinZoom, rec.MaxZoom)
	}
	b := demoBuilder{rec: rec, fp: fp, box: box}
	n := 0
	for _, id := range tilesCovering(rec.MinZoom, box) {
		if n += b.countDemo(id, maxDemoTiles-n+1); n > maxDemoTiles {
			return fmt.Errorf("tiles3d: record %s levels %d to %d make more than %d tiles", rec.ID, rec.MinZoom, rec.MaxZoom, maxDemoTiles)
		}
	}
	tmp, err := os.MkdirTemp(dir, ".tileset-*")
	if err != nil {
		return fmt.Errorf("tiles3d: %w", err)
	}
	defer os.RemoveAll(tmp) // after the rename, a no-op
	b.dir = tmp
	root := Tile{Refine: "REPLACE"}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, id := range tilesCovering(rec.MinZoom, box) {
		t, ok, err := b.tile(id)
		if err != nil {
			return err
		}
		if ok {
			root.Children = append(root.Children, t)
			lo, hi = math.Min(lo, t.BoundingVolume.Region[4]), math.Max(hi, t.BoundingVolume.Region[5])
		}
	}
	if len(root.Children) == 0 {
		return fmt.Errorf("tiles3d: record %s: no tile meets the footprint", rec.ID)
	}
	root.BoundingVolume = regionOf(box, lo, hi)
	root.GeometricError = levelError(rec.MinZoom - 1)
	ts := Tileset{Asset: Asset{Version: "1.1"}, GeometricError: 2 * root.GeometricError, Root: root}
	js, err := json.Marshal(ts)
	if err != nil {
		return fmt.Errorf("tiles3d: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, TilesetFile), js, 0o644); err != nil {
		return fmt.Errorf("tiles3d: %w", err)
	}
	final := filepath.Join(dir, SourceDir)
	if err := os.RemoveAll(final); err != nil {
		return fmt.Errorf("tiles3d: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("tiles3d: %w", err)
	}
	return nil
}

// demoBuilder writes the demo tiles.
type demoBuilder struct {
	dir string
	rec catalog.Record
	fp  geom.MultiPolygon
	box geom.BBox
}

// area returns the part of tile id's extent inside the footprint's box, or
// false when the tile does not meet the footprint.
func (b *demoBuilder) area(id tileID) (geom.BBox, bool) {
	a := id.box().Intersect(b.box)
	if a.Empty() || a.Width() == 0 || a.Height() == 0 || !b.fp.IntersectsBox(shrink(a)) {
		return geom.BBox{}, false
	}
	return a, true
}

// countDemo counts tile id and its descendants that meet the footprint,
// stopping once the count passes limit.
func (b *demoBuilder) countDemo(id tileID, limit int) int {
	if _, ok := b.area(id); !ok {
		return 0
	}
	n := 1
	if id.z < b.rec.MaxZoom {
		for _, c := range id.children() {
			if n += b.countDemo(c, limit-n); n > limit {
				break
			}
		}
	}
	return n
}

// tile writes tile id's content and its descendants', returning the tile,
// or false when id does not meet the footprint.
func (b *demoBuilder) tile(id tileID) (Tile, bool, error) {
	area, ok := b.area(id)
	if !ok {
		return Tile{}, false, nil
	}
	m, lo, hi := terrainMesh(area, terrain.Elevation)
	data, err := glb.Encode(m)
	if err != nil {
		return Tile{}, false, fmt.Errorf("tiles3d: tile %v: %w", id, err)
	}
	p := filepath.Join(b.dir, filepath.FromSlash(id.uri()))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return Tile{}, false, fmt.Errorf("tiles3d: %w", err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return Tile{}, false, fmt.Errorf("tiles3d: %w", err)
	}
	t := Tile{Refine: "REPLACE", Content: &Content{URI: id.uri()}}
	// The error of using this tile instead of the terrain: about one
	// mesh cell; zero at the finest level.
	if id.z < b.rec.MaxZoom {
		t.GeometricError = levelError(id.z)
		for _, c := range id.children() {
			ct, ok, err := b.tile(c)
			if err != nil {
				return Tile{}, false, err
			}
			if ok {
				t.Children = append(t.Children, ct)
				lo, hi = math.Min(lo, ct.BoundingVolume.Region[4]), math.Max(hi, ct.BoundingVolume.Region[5])
			}
		}
	}
	// A metre of slack below: the flat triangles between samples sag a
	// little under the curved surface.
	t.BoundingVolume = regionOf(area, math.Floor(lo-1), math.Ceil(hi))
	return t, true, nil
}

// levelError is the geometric error of a mesh at zoom z: the length of one
// mesh cell, in meters.
func levelError(z int) float64 {
	return 180 / math.Exp2(float64(z)) / (gridVertices - 1) * metersPerDegree
}
