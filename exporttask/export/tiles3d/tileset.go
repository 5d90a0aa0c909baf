package tiles3d

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// TilesetFile is the name of the tileset JSON in a record's tileset
// directory, and in the exported zip.
const TilesetFile = "tileset.json"

// SourceDir is the directory in a record's Location that holds the tileset.
const SourceDir = "tileset"

// Tileset is the part of the 3D Tiles tileset JSON this package writes and
// reads; other properties of a source tileset (extensions, extras,
// metadata, implicit tiling) are not carried into an export.
type Tileset struct {
	Asset          Asset   `json:"asset"`
	GeometricError float64 `json:"geometricError"`
	Root           Tile    `json:"root"`
}

// Asset is the tileset's asset object.
type Asset struct {
	Version string `json:"version"`
}

// Tile is one tile of a tileset.
type Tile struct {
	BoundingVolume BoundingVolume `json:"boundingVolume"`
	GeometricError float64        `json:"geometricError"`
	Refine         string         `json:"refine,omitempty"`
	// Transform is kept as the source has it (column-major 4×4); regions
	// are not transformed, so the subset does not depend on it.
	Transform []float64 `json:"transform,omitempty"`
	Content   *Content  `json:"content,omitempty"`
	Children  []Tile    `json:"children,omitempty"`
}

// BoundingVolume is a tile's volume; this package uses regions only:
// [west, south, east, north, minimum height, maximum height], angles in
// radians, heights in meters above the WGS 84 ellipsoid.
type BoundingVolume struct {
	Region []float64 `json:"region"`
}

// Content names a tile's content file, relative to the tileset JSON.
type Content struct {
	URI string `json:"uri"`
}

// box returns the region's extent in degrees.
func (v BoundingVolume) box() geom.BBox {
	r := v.Region
	d := 180 / math.Pi
	return geom.BBox{West: r[0] * d, South: r[1] * d, East: r[2] * d, North: r[3] * d}
}

func regionOf(b geom.BBox, lo, hi float64) BoundingVolume {
	r := math.Pi / 180
	return BoundingVolume{Region: []float64{b.West * r, b.South * r, b.East * r, b.North * r, lo, hi}}
}

// loadTileset reads and checks a record's tileset JSON. dir is the tileset
// directory. Every problem is a permanent error naming the JSON Pointer.
func loadTileset(dir string) (*Tileset, error) {
	p := filepath.Join(dir, TilesetFile)
	b, err := os.ReadFile(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, exporttask.Permanent("the 3D record's tileset is missing", err)
		}
		return nil, exporttask.Permanent("the 3D record's tileset cannot be read", err)
	}
	var ts Tileset
	if err := json.Unmarshal(b, &ts); err != nil {
		return nil, exporttask.Permanent("the 3D record's tileset is corrupt", fmt.Errorf("%s: %w", p, err))
	}
	if ts.Asset.Version != "1.0" && ts.Asset.Version != "1.1" {
		return nil, exporttask.Permanent("the 3D record's tileset is corrupt",
			fmt.Errorf("%s: /asset/version %q is not 1.0 or 1.1", p, ts.Asset.Version))
	}
	if err := checkTile(&ts.Root, "/root"); err != nil {
		return nil, exporttask.Permanent("the 3D record's tileset is corrupt", fmt.Errorf("%s: %w", p, err))
	}
	return &ts, nil
}

// checkTile checks t and its descendants: a region of six numbers, west ≤
// east, south ≤ north, and content URIs that stay inside the tileset.
func checkTile(t *Tile, ptr string) error {
	r := t.BoundingVolume.Region
	if len(r) != 6 {
		return fmt.Errorf("%s/boundingVolume/region: want 6 numbers, have %d (only regions are supported)", ptr, len(r))
	}
	if r[0] > r[2] || r[1] > r[3] || r[4] > r[5] {
		return fmt.Errorf("%s/boundingVolume/region: %v is inverted", ptr, r)
	}
	if t.Content != nil {
		if err := checkURI(t.Content.URI); err != nil {
			return fmt.Errorf("%s/content/uri: %w", ptr, err)
		}
	}
	for i := range t.Children {
		if err := checkTile(&t.Children[i], fmt.Sprintf("%s/children/%d", ptr, i)); err != nil {
			return err
		}
	}
	return nil
}

// checkURI accepts relative slash paths that stay inside the tileset.
func checkURI(u string) error {
	switch {
	case u == "":
		return errors.New("empty")
	case strings.Contains(u, ":") || strings.HasPrefix(u, "/") || strings.Contains(u, `\`):
		return fmt.Errorf("%q is not a relative path", u)
	case path.Clean(u) != u || u == ".." || strings.HasPrefix(u, "../"):
		return fmt.Errorf("%q is not a clean path inside the tileset", u)
	case u == TilesetFile:
		return fmt.Errorf("%q is the tileset itself", u)
	}
	return nil
}

// subset returns the part of t whose bounding volumes meet the area
// (with their ancestors, which contain them), or false when t misses it.
func subset(t *Tile, meets func(geom.BBox) bool) (Tile, bool) {
	if !meets(shrink(t.BoundingVolume.box())) {
		return Tile{}, false
	}
	out := *t
	out.Children = nil
	for i := range t.Children {
		if c, ok := subset(&t.Children[i], meets); ok {
			out.Children = append(out.Children, c)
		}
	}
	return out, true
}

// contents lists the content URIs of t and its descendants, breadth first
// (coarse levels before fine ones).
func contents(t *Tile) []string {
	var out []string
	queue := []*Tile{t}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c.Content != nil {
			out = append(out, c.Content.URI)
		}
		for i := range c.Children {
			queue = append(queue, &c.Children[i])
		}
	}
	return out
}

// countTiles counts t and its descendants.
func countTiles(t *Tile) int {
	n := 1
	for i := range t.Children {
		n += countTiles(&t.Children[i])
	}
	return n
}

// leaves lists the content URIs of the tiles under t that have no children:
// with REPLACE refinement they cover all that t's subset shows.
func leaves(t *Tile) []string {
	if len(t.Children) == 0 {
		if t.Content == nil {
			return nil
		}
		return []string{t.Content.URI}
	}
	var out []string
	for i := range t.Children {
		out = append(out, leaves(&t.Children[i])...)
	}
	return out
}
