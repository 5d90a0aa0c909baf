package tiles3d

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// TilesetFile is the name of the tileset JSON in a record's tileset
// directory, and in the exported zip.
const TilesetFile = "tileset.json"

// SourceDir is the directory in a record's Location that holds the tileset.
const SourceDir = "tileset"

// Tileset is the part of the 3D Tiles tileset JSON that [WriteDemoSource]
// writes. Exports do not decode tilesets into it: they keep every property
// of the source's tileset JSON files (see the package documentation).
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
	// Transform is a column-major 4×4 matrix; the demo writes none.
	Transform []float64 `json:"transform,omitempty"`
	Content   *Content  `json:"content,omitempty"`
	Children  []Tile    `json:"children,omitempty"`
}

// BoundingVolume is a tile's volume; the demo writes regions only:
// [west, south, east, north, minimum height, maximum height], angles in
// radians, heights in meters above the WGS 84 ellipsoid.
type BoundingVolume struct {
	Region []float64 `json:"region"`
}

// Content names a tile's content file, relative to the tileset JSON.
type Content struct {
	URI string `json:"uri"`
}

func regionOf(b geom.BBox, lo, hi float64) BoundingVolume {
	r := math.Pi / 180
	return BoundingVolume{Region: []float64{b.West * r, b.South * r, b.East * r, b.North * r, lo, hi}}
}

// selection is the part of a source that an export writes.
type selection struct {
	jsons        []jsonEntry // the tileset JSON files cut to the selection, tileset.json first
	files        []string    // the files copied as stored, each once, in tree order
	tiles        int         // tiles selected, in every tileset JSON file
	contentTiles int         // of which with a content that is not a tileset
	leaves       []*node     // selected tiles with no selected child
	root         region      // the main root's region
	maxLevel     int         // the deepest level selected
	version      string      // the main tileset's asset.version
}

// jsonEntry is a tileset JSON file of an export.
type jsonEntry struct {
	name string
	data []byte
}

// selector cuts a source to the tiles an export keeps.
type selector struct {
	meets func(geom.BBox) bool
	limit int // the deepest level kept
	sel   *selection
	files map[string]bool
}

// selectTiles returns the tiles whose regions meet the area (by meets),
// with their ancestors, down to level limit; false when the main root
// misses the area. The root of an external tileset is kept whenever the
// tile that names it is, so that the name resolves.
func (s *source) selectTiles(meets func(geom.BBox) bool, limit int) (*selection, bool, error) {
	x := &selector{meets: meets, limit: limit, sel: &selection{root: s.main.root.region, version: s.main.version},
		files: map[string]bool{}}
	data, ok, err := x.file(s.main, false)
	if err != nil || !ok {
		return nil, ok, err
	}
	x.sel.jsons = append([]jsonEntry{{name: TilesetFile, data: data}}, x.sel.jsons...)
	return x.sel, true, nil
}

// addFile lists a file to copy, once.
func (x *selector) addFile(p string) {
	if !x.files[p] {
		x.files[p] = true
		x.sel.files = append(x.sel.files, p)
	}
}

// file returns the tileset JSON file f cut to the selection.
func (x *selector) file(f *tilesetFile, force bool) ([]byte, bool, error) {
	root, ok, err := x.tile(f.root, force)
	if err != nil || !ok {
		return nil, ok, err
	}
	top := maps.Clone(f.top)
	top["root"] = root
	if f.schema != "" {
		x.addFile(f.schema)
	}
	data, err := marshal(top)
	if err != nil {
		return nil, false, fmt.Errorf("tiles3d: %s: %w", f.name, err)
	}
	return data, true, nil
}

// tile returns tile n cut to the selection, or false when it is not kept;
// force keeps n itself whatever its region.
func (x *selector) tile(n *node, force bool) (json.RawMessage, bool, error) {
	if n.level > x.limit || (!force && !x.meets(shrink(n.region.box()))) {
		return nil, false, nil
	}
	x.sel.tiles++
	x.sel.maxLevel = max(x.sel.maxLevel, n.level)
	out := maps.Clone(n.raw)
	delete(out, "children")
	var dropped []int // contents left out: external tilesets below the level limit
	hasChild, hasContent := false, false
	for i, c := range n.contents {
		if c.external == nil {
			hasContent = true
			x.addFile(c.file)
			for _, e := range c.extra {
				x.addFile(e)
			}
			continue
		}
		if n.level+1 > x.limit {
			dropped = append(dropped, i)
			continue
		}
		data, _, err := x.file(c.external, true)
		if err != nil {
			return nil, false, err
		}
		x.sel.jsons = append(x.sel.jsons, jsonEntry{name: c.external.name, data: data})
		hasChild = true
	}
	if hasContent {
		x.sel.contentTiles++
	}
	if len(dropped) > 0 {
		if err := dropContents(out, dropped); err != nil {
			return nil, false, fmt.Errorf("tiles3d: %s: %w", n.ptr, err)
		}
	}
	var children []json.RawMessage
	for _, c := range n.children {
		ct, ok, err := x.tile(c, false)
		if err != nil {
			return nil, false, err
		}
		if ok {
			children = append(children, ct)
		}
	}
	if len(children) > 0 {
		b, err := marshal(children)
		if err != nil {
			return nil, false, fmt.Errorf("tiles3d: %s: %w", n.ptr, err)
		}
		out["children"] = b
		hasChild = true
	}
	if !hasChild {
		x.sel.leaves = append(x.sel.leaves, n)
	}
	b, err := marshal(out)
	if err != nil {
		return nil, false, fmt.Errorf("tiles3d: %s: %w", n.ptr, err)
	}
	return b, true, nil
}

// dropContents removes the contents at the given indexes from a tile's
// properties: its content, or entries of its contents.
func dropContents(t map[string]json.RawMessage, drop []int) error {
	if _, ok := t["content"]; ok {
		delete(t, "content")
		return nil
	}
	var cs []json.RawMessage
	if err := json.Unmarshal(t["contents"], &cs); err != nil {
		return err
	}
	var keep []json.RawMessage
	for i, c := range cs {
		if !slices.Contains(drop, i) {
			keep = append(keep, c)
		}
	}
	if len(keep) == 0 {
		delete(t, "contents")
		return nil
	}
	b, err := marshal(keep)
	if err != nil {
		return err
	}
	t["contents"] = b
	return nil
}

// marshal encodes v as compact JSON, leaving <, > and & in strings as
// they are (json.Marshal would escape them).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
