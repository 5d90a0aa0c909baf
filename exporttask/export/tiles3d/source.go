package tiles3d

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// Limits of the tilesets this package reads.
const (
	// maxExternalDepth is the deepest chain of external tilesets.
	maxExternalDepth = 16
	// maxLevel is the deepest tile level, external tilesets included.
	maxLevel = 64
	// MaxJSONBytes is the largest tileset JSON (or .gltf) file read: a
	// larger one is refused before it is read. Split a larger tileset into
	// external tilesets (npx 3d-tiles-tools has no splitter, but most
	// producers write external tilesets per region).
	MaxJSONBytes = 32 << 20
	// MaxTiles is the most tiles a tileset may hold, its external tilesets
	// included: a tileset of more is refused (at catalog add, or when an
	// export reads it) as soon as its count passes this.
	MaxTiles = 100_000
	// MaxContentBytes is the largest content file (b3dm, i3dm, cmpt, pnts,
	// glb, a .gltf's buffer or image) a tileset may name.
	MaxContentBytes = 1 << 30
)

// source is a tileset on disk: its tileset JSON files, every tile's
// lon/lat region and every content file, checked to exist inside dir.
type source struct {
	dir   string       // the tileset directory, absolute
	main  *tilesetFile // dir/tileset.json
	depth int          // the deepest tile level; the main root is level 0
}

// tilesetFile is one tileset JSON file: the main one or an external one.
type tilesetFile struct {
	name    string                     // slash path inside the tileset directory
	top     map[string]json.RawMessage // its properties as stored
	version string                     // asset.version
	root    *node
	schema  string // the file schemaUri names, or ""
}

// node is one tile.
type node struct {
	ptr      string                     // JSON Pointer in its file
	raw      map[string]json.RawMessage // its properties as stored
	region   region                     // a lon/lat region holding its bounding volume
	xform    mat4                       // the product of the transforms from the main root down to this tile
	level    int                        // 0 for the main root, +1 per child and per external tileset
	contents []content
	children []*node
}

// content is one of a tile's contents.
type content struct {
	file     string       // slash path inside the tileset directory
	kind     string       // the file's extension, lower case, without the dot
	external *tilesetFile // for a tileset JSON
	extra    []string     // the files a .gltf references (buffers, images)
}

// loader reads a tileset.
type loader struct {
	ctx   context.Context
	dir   string
	root  *sourcefs.Root
	seen  map[string]string // external file → the pointer that named it
	src   *source
	tiles int // the tiles read so far
}

// loadSource reads the tileset whose tileset.json is in dir. Every problem
// is a *export.SourceError naming the file and the JSON Pointer.
func loadSource(ctx context.Context, dir string) (*source, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("tiles3d: %w", err)
	}
	r, err := sourcefs.OpenRoot(abs)
	if err != nil {
		return nil, &export.SourceError{File: abs, Problem: "not a readable directory",
			Fix: "give the directory that holds tileset.json", Err: err}
	}
	defer r.Close()
	l := &loader{ctx: ctx, dir: abs, root: r, seen: map[string]string{}, src: &source{dir: abs}}
	main, err := l.file(TilesetFile, identity(), 0, 0, nil)
	if err != nil {
		return nil, err
	}
	l.src.main = main
	return l.src, nil
}

// fail returns a SourceError about the file name inside the tileset.
func (l *loader) fail(name, problem, fix string, err error) error {
	return &export.SourceError{File: filepath.Join(l.dir, filepath.FromSlash(name)), Problem: problem, Fix: fix, Err: err}
}

// fileFail returns the SourceError of a file of the tileset that cannot
// be read (err from sourcefs).
func (l *loader) fileFail(name string, err error) error {
	var fe *sourcefs.Error
	if !errors.As(err, &fe) {
		return l.fail(name, "cannot be read: "+err.Error(), "", err)
	}
	problem := strings.TrimPrefix(fe.Error(), fe.Name+" ")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return l.fail(fe.Name, "no such file", "give a 3D Tiles tileset directory that holds "+TilesetFile, err)
	case errors.Is(err, sourcefs.ErrOutside):
		return l.fail(fe.Name, problem, "a record reads only files inside its tileset directory: copy the data in instead of linking to it", err)
	case errors.Is(err, sourcefs.ErrNotRegular):
		return l.fail(fe.Name, problem, "the files of a tileset must be regular files", err)
	case errors.Is(err, sourcefs.ErrTooLarge):
		return l.fail(fe.Name, problem, "split the tileset into external tilesets, or its contents into smaller tiles", err)
	}
	return l.fail(fe.Name, "cannot be read: "+problem, "", err)
}

// readJSON reads a JSON file of the tileset (of at most MaxJSONBytes)
// into v, naming the line and column of a syntax error.
func (l *loader) readJSON(name string, v any) error {
	b, err := l.root.ReadFile(name, MaxJSONBytes)
	if err != nil {
		return l.fileFail(name, err)
	}
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		return l.fail(name, "gzip-compressed", "decompress the tileset with npx 3d-tiles-tools ungzip", nil)
	}
	if err := json.Unmarshal(b, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := lineCol(b, se.Offset)
			return l.fail(name, fmt.Sprintf("malformed JSON at line %d, column %d: %v", line, col, se), "fix the JSON", err)
		case errors.As(err, &te):
			line, col := lineCol(b, te.Offset)
			return l.fail(name, fmt.Sprintf("at line %d, column %d: a JSON %s where an object was expected", line, col, te.Value),
				"fix the JSON", err)
		}
		return l.fail(name, "malformed JSON: "+err.Error(), "fix the JSON", err)
	}
	return nil
}

// lineCol returns the 1-based line and column of the byte before offset
// off in b: encoding/json's errors give the offset after the byte at
// which they stopped.
func lineCol(b []byte, off int64) (int, int) {
	pos := min(max(off-1, 0), int64(len(b)))
	before := b[:pos]
	line := bytes.Count(before, []byte{'\n'}) + 1
	return line, int(pos) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// file reads the tileset JSON file name (a slash path inside the
// directory) whose root is at level, under the transform parent; depth
// counts the external tilesets above it, stack their names.
func (l *loader) file(name string, parent mat4, level, depth int, stack []string) (*tilesetFile, error) {
	f := &tilesetFile{name: name}
	if err := l.readJSON(name, &f.top); err != nil {
		return nil, err
	}
	if f.top == nil {
		return nil, l.fail(name, "the JSON is not an object", "give a 3D Tiles tileset JSON", nil)
	}
	var asset struct {
		Version *string `json:"version"`
	}
	if err := decodeField(f.top, "asset", &asset); err != nil || asset.Version == nil {
		return nil, l.fail(name, "/asset/version is missing or not a string", "give a 3D Tiles 1.0 or 1.1 tileset", err)
	}
	f.version = *asset.Version
	if f.version != "1.0" && f.version != "1.1" {
		return nil, l.fail(name, fmt.Sprintf("/asset/version %q is not supported (3D Tiles 1.0 and 1.1 are)", f.version),
			"upgrade it with npx 3d-tiles-tools upgrade", nil)
	}
	var required []string
	if err := decodeField(f.top, "extensionsRequired", &required); err != nil {
		return nil, l.fail(name, "/extensionsRequired: "+err.Error(), "fix the JSON", err)
	}
	for _, e := range required {
		if e == "3DTILES_implicit_tiling" {
			return nil, l.fail(name, "/extensionsRequired names 3DTILES_implicit_tiling: implicit tiling is not supported",
				"give a tileset with explicit tiles", nil)
		}
	}
	var schemaURI string
	if err := decodeField(f.top, "schemaUri", &schemaURI); err != nil {
		return nil, l.fail(name, "/schemaUri: "+err.Error(), "fix the JSON", err)
	}
	if schemaURI != "" {
		p, err := l.resolve(name, schemaURI, "/schemaUri")
		if err != nil {
			return nil, err
		}
		if err := l.exists(name, p, "/schemaUri"); err != nil {
			return nil, err
		}
		f.schema = p
	}
	raw, ok := f.top["root"]
	if !ok {
		return nil, l.fail(name, "/root is missing", "give a 3D Tiles tileset JSON", nil)
	}
	root, err := l.tile(f, raw, "/root", parent, level, depth, append(stack, name))
	if err != nil {
		return nil, err
	}
	f.root = root
	return f, nil
}

// decodeField decodes m[key] into v when it is present and not null.
func decodeField(m map[string]json.RawMessage, key string, v any) error {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// volume is a tile's boundingVolume.
type volume struct {
	Region     []float64                  `json:"region"`
	Box        []float64                  `json:"box"`
	Sphere     []float64                  `json:"sphere"`
	Extensions map[string]json.RawMessage `json:"extensions"`
}

// contentJSON is a tile's content: uri, or url in tilesets written for
// 3D Tiles 1.0 drafts.
type contentJSON struct {
	URI *string `json:"uri"`
	URL *string `json:"url"`
}

// tile reads a tile and its descendants.
func (l *loader) tile(f *tilesetFile, raw json.RawMessage, ptr string, parent mat4, level, depth int, stack []string) (*node, error) {
	if err := l.ctx.Err(); err != nil {
		return nil, err
	}
	if level > maxLevel {
		return nil, l.fail(f.name, fmt.Sprintf("%s: tiles nest deeper than %d levels", ptr, maxLevel), "", nil)
	}
	if l.tiles++; l.tiles > MaxTiles {
		return nil, l.fail(f.name, fmt.Sprintf("%s: the tileset holds more than %d tiles", ptr, MaxTiles),
			"split it into several records", nil)
	}
	n := &node{ptr: ptr, level: level}
	bad := func(what string, err error) error {
		return l.fail(f.name, ptr+what, "fix the tileset JSON", err)
	}
	if err := json.Unmarshal(raw, &n.raw); err != nil || n.raw == nil {
		return nil, bad(": not a tile object", err)
	}
	if _, ok := n.raw["implicitTiling"]; ok {
		return nil, l.fail(f.name, ptr+"/implicitTiling: implicit tiling is not supported", "give a tileset with explicit tiles", nil)
	}
	var ext map[string]json.RawMessage
	if err := decodeField(n.raw, "extensions", &ext); err != nil {
		return nil, bad("/extensions: "+err.Error(), err)
	}
	if _, ok := ext["3DTILES_implicit_tiling"]; ok {
		return nil, l.fail(f.name, ptr+"/extensions/3DTILES_implicit_tiling: implicit tiling is not supported",
			"give a tileset with explicit tiles", nil)
	}
	n.xform = parent
	if t, ok := n.raw["transform"]; ok {
		var m []float64
		if err := json.Unmarshal(t, &m); err != nil || len(m) != 16 {
			return nil, bad("/transform: want an array of 16 numbers", err)
		}
		n.xform = parent.mul(mat4(m))
	}
	var bv volume
	if err := decodeField(n.raw, "boundingVolume", &bv); err != nil {
		return nil, bad("/boundingVolume: "+err.Error(), err)
	}
	reg, err := l.region(bv, n.xform)
	if err != nil {
		return nil, bad("/boundingVolume"+err.Error(), nil)
	}
	n.region = reg
	_, hasContent := n.raw["content"]
	_, hasContents := n.raw["contents"]
	var cs []contentJSON
	var cptrs []string
	switch {
	case hasContent && hasContents:
		return nil, bad("/contents: a tile has content or contents, not both", nil)
	case hasContent:
		var c contentJSON
		if err := decodeField(n.raw, "content", &c); err != nil {
			return nil, bad("/content: "+err.Error(), err)
		}
		cs, cptrs = []contentJSON{c}, []string{ptr + "/content"}
	case hasContents:
		if err := decodeField(n.raw, "contents", &cs); err != nil {
			return nil, bad("/contents: "+err.Error(), err)
		}
		for i := range cs {
			cptrs = append(cptrs, fmt.Sprintf("%s/contents/%d", ptr, i))
		}
	}
	for i, c := range cs {
		cp := cptrs[i]
		uri, key := c.URI, "/uri"
		if uri == nil {
			uri, key = c.URL, "/url"
		}
		if uri == nil {
			return nil, l.fail(f.name, cp+": no uri", "fix the tileset JSON", nil)
		}
		ct, err := l.content(f, *uri, cp+key, n.xform, level, depth, stack)
		if err != nil {
			return nil, err
		}
		n.contents = append(n.contents, ct)
	}
	var children []json.RawMessage
	if err := decodeField(n.raw, "children", &children); err != nil {
		return nil, bad("/children: "+err.Error(), err)
	}
	// The children are kept as nodes (the cut tileset is written from
	// those), so drop their text: memory stays about the files' size
	// whatever the depth.
	delete(n.raw, "children")
	if l.tiles+len(children) > MaxTiles {
		return nil, l.fail(f.name, fmt.Sprintf("%s/children: the tileset holds more than %d tiles", ptr, MaxTiles),
			"split it into several records", nil)
	}
	for i := range children {
		c := children[i]
		children[i] = nil
		ch, err := l.tile(f, c, fmt.Sprintf("%s/children/%d", ptr, i), n.xform, level+1, depth, stack)
		if err != nil {
			return nil, err
		}
		n.children = append(n.children, ch)
	}
	l.src.depth = max(l.src.depth, level)
	return n, nil
}

// region turns a bounding volume under transform m into a lon/lat region.
// Its error starts with the rest of the JSON Pointer.
func (l *loader) region(bv volume, m mat4) (region, error) {
	bad := func(a []float64) bool {
		for _, v := range a {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return true
			}
		}
		return false
	}
	switch {
	case bv.Region != nil:
		r := bv.Region
		if len(r) != 6 || bad(r) {
			return region{}, fmt.Errorf("/region: want 6 numbers, have %v", r)
		}
		if r[1] > r[3] || r[1] < -math.Pi/2 || r[3] > math.Pi/2 || math.Abs(r[0]) > math.Pi || math.Abs(r[2]) > math.Pi {
			return region{}, fmt.Errorf("/region: %v is not [west, south, east, north, min height, max height] in radians", r)
		}
		out := regionFromArray(r)
		if out.lo > out.hi {
			out.lo, out.hi = out.hi, out.lo
		}
		if out.west > out.east { // across the antimeridian: every longitude, conservatively
			out.west, out.east = -math.Pi, math.Pi
		}
		return out, nil
	case bv.Box != nil:
		b := bv.Box
		if len(b) != 12 || bad(b) {
			return region{}, fmt.Errorf("/box: want 12 numbers, have %d", len(b))
		}
		c := m.point([3]float64{b[0], b[1], b[2]})
		u := m.vector([3]float64{b[3], b[4], b[5]})
		v := m.vector([3]float64{b[6], b[7], b[8]})
		w := m.vector([3]float64{b[9], b[10], b[11]})
		if err := placed(c, len3v(u)+len3v(v)+len3v(w)); err != nil {
			return region{}, fmt.Errorf("/box: %w", err)
		}
		return boxRegion(c, u, v, w), nil
	case bv.Sphere != nil:
		s := bv.Sphere
		if len(s) != 4 || bad(s) || s[3] < 0 {
			return region{}, fmt.Errorf("/sphere: want 4 numbers, the last a radius ≥ 0, have %v", s)
		}
		c, r := m.point([3]float64{s[0], s[1], s[2]}), s[3]*m.maxScale()
		if err := placed(c, r); err != nil {
			return region{}, fmt.Errorf("/sphere: %w", err)
		}
		return sphereRegion(c, r), nil
	}
	return region{}, errors.New(": no region, box or sphere (other bounding volumes are not supported)")
}

// placed refuses a volume of centre c (ECEF meters) and size up to reach
// meters from it that is smaller than the Earth yet centred near the
// Earth's centre: a tileset in local coordinates, not placed on the Earth.
func placed(c [3]float64, reach float64) error {
	if d := len3v(c); d < 1e6 && reach < 1e6 {
		return fmt.Errorf("centred %.0f m from the Earth's centre: the tileset is in local coordinates, not placed on the Earth "+
			"(give its root a transform to Earth-centred coordinates, e.g. with npx 3d-tiles-tools createTilesetJson --cartographicPositionDegrees)", d)
	}
	return nil
}

// contentKind reports whether kind (a file extension) is a content this
// package copies, or a tileset JSON.
func contentKind(kind string) bool {
	switch kind {
	case "b3dm", "i3dm", "pnts", "cmpt", "glb", "gltf", "json":
		return true
	}
	return false
}

// content checks one content URI of a tile in file f at pointer ptr.
func (l *loader) content(f *tilesetFile, uri, ptr string, xform mat4, level, depth int, stack []string) (content, error) {
	p, err := l.resolve(f.name, uri, ptr)
	if err != nil {
		return content{}, err
	}
	kind := strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
	if !contentKind(kind) {
		return content{}, l.fail(f.name, fmt.Sprintf("%s: %q: content of type %q is not supported (b3dm, i3dm, pnts, cmpt, glb, gltf or an external tileset .json are)", ptr, uri, kind),
			"convert it with npx 3d-tiles-tools", nil)
	}
	c := content{file: p, kind: kind}
	switch kind {
	case "json":
		if p == TilesetFile {
			return content{}, l.fail(f.name, fmt.Sprintf("%s: %q names the main tileset", ptr, uri), "remove the cycle", nil)
		}
		for _, s := range stack {
			if s == p {
				return content{}, l.fail(f.name, fmt.Sprintf("%s: %q names a tileset that names this one: a cycle", ptr, uri), "remove the cycle", nil)
			}
		}
		if prev, ok := l.seen[p]; ok {
			return content{}, l.fail(f.name, fmt.Sprintf("%s: external tileset %q is also named at %s; each external tileset may be named once", ptr, p, prev),
				"copy it under another name", nil)
		}
		if depth+1 > maxExternalDepth {
			return content{}, l.fail(f.name, fmt.Sprintf("%s: external tilesets nest deeper than %d", ptr, maxExternalDepth), "", nil)
		}
		if err := l.exists(f.name, p, ptr); err != nil {
			return content{}, err
		}
		l.seen[p] = f.name + "#" + ptr
		ext, err := l.file(p, xform, level+1, depth+1, stack)
		if err != nil {
			return content{}, err
		}
		c.external = ext
	case "gltf":
		if err := l.exists(f.name, p, ptr); err != nil {
			return content{}, err
		}
		extra, err := l.gltfFiles(p)
		if err != nil {
			return content{}, err
		}
		c.extra = extra
	case "i3dm", "cmpt":
		if err := l.exists(f.name, p, ptr); err != nil {
			return content{}, err
		}
		if err := l.embeddedGLTF(p); err != nil {
			return content{}, err
		}
	default:
		if err := l.exists(f.name, p, ptr); err != nil {
			return content{}, err
		}
	}
	return c, nil
}

// resolve returns the slash path inside the tileset directory that uri,
// written in the file from, names; URLs, absolute paths and paths that
// leave the directory are refused.
func (l *loader) resolve(from, uri, ptr string) (string, error) {
	refuse := func(why string) error {
		return l.fail(from, fmt.Sprintf("%s: %q %s", ptr, uri, why),
			"a record reads only files inside its tileset directory: copy the data in and use relative paths", nil)
	}
	u, err := url.Parse(uri)
	switch {
	case uri == "":
		return "", refuse("is empty")
	case err != nil:
		return "", refuse("is not a URI")
	case u.Scheme != "" || u.Host != "" || u.Opaque != "":
		return "", refuse("is a URL, not a relative path")
	case u.RawQuery != "" || u.Fragment != "" || strings.Contains(uri, "?"):
		return "", refuse("has a query or fragment")
	case strings.HasPrefix(u.Path, "/") || strings.Contains(u.Path, `\`):
		return "", refuse("is an absolute path")
	}
	p := path.Join(path.Dir(from), u.Path)
	if p == ".." || strings.HasPrefix(p, "../") || p == "." {
		return "", refuse("leaves the tileset directory")
	}
	return p, nil
}

// exists checks that the file p inside the directory is a regular file
// (a link to one is followed inside the directory only) of at most
// MaxContentBytes.
func (l *loader) exists(from, p, ptr string) error {
	st, err := l.root.StatFile(p)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return l.fail(from, fmt.Sprintf("%s: content %s does not exist", ptr, p), "copy the missing file in, or remove the tile", err)
	case err != nil:
		return l.fileFail(p, err)
	case st.Size() > MaxContentBytes:
		return l.fileFail(p, &sourcefs.Error{Name: p, Err: sourcefs.ErrTooLarge,
			Detail: fmt.Sprintf("%d bytes, the limit is %d", st.Size(), MaxContentBytes)})
	}
	return nil
}

// gltfFiles returns the files a .gltf content references (buffers and
// images not given as data: URIs), after checking each exists inside the
// tileset directory.
func (l *loader) gltfFiles(p string) ([]string, error) {
	var doc struct {
		Buffers []struct {
			URI string `json:"uri"`
		} `json:"buffers"`
		Images []struct {
			URI string `json:"uri"`
		} `json:"images"`
	}
	if err := l.readJSON(p, &doc); err != nil {
		return nil, err
	}
	var out []string
	check := func(uri, ptr string) error {
		if uri == "" || strings.HasPrefix(uri, "data:") {
			return nil
		}
		q, err := l.resolve(p, uri, ptr)
		if err != nil {
			return err
		}
		if err := l.exists(p, q, ptr); err != nil {
			return err
		}
		out = append(out, q)
		return nil
	}
	for i, b := range doc.Buffers {
		if err := check(b.URI, fmt.Sprintf("/buffers/%d/uri", i)); err != nil {
			return nil, err
		}
	}
	for i, im := range doc.Images {
		if err := check(im.URI, fmt.Sprintf("/images/%d/uri", i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// embeddedGLTF checks that an i3dm, or every i3dm in a cmpt, embeds its
// glTF (gltfFormat 1) rather than naming an external one by URI. It reads
// the headers only, whatever the file's size.
func (l *loader) embeddedGLTF(p string) error {
	f, st, err := l.root.Open(p)
	if err != nil {
		return l.fileFail(p, err)
	}
	defer f.Close()
	return l.checkTile(p, f, 0, st.Size(), 0)
}

// checkTile checks the tile of size bytes at byte off of r, the file p
// (at nesting depth in a cmpt), from its header and those of its inner
// tiles.
func (l *loader) checkTile(p string, r io.ReaderAt, off, size int64, depth int) error {
	le := binary.LittleEndian
	if size < 12 {
		return l.fail(p, "too short for a 3D Tiles tile header", "", nil)
	}
	var h [32]byte
	if _, err := r.ReadAt(h[:min(size, int64(len(h)))], off); err != nil {
		return l.fail(p, "cannot be read: "+err.Error(), "", err)
	}
	switch string(h[:4]) {
	case "i3dm":
		if size < 32 {
			return l.fail(p, "too short for an i3dm header", "", nil)
		}
		if le.Uint32(h[28:]) != 1 {
			return l.fail(p, "the i3dm names its glTF by URI (gltfFormat 0); only embedded glTF is supported",
				"embed the glTF (gltfFormat 1)", nil)
		}
	case "cmpt":
		if size < 16 || depth > 8 {
			return l.fail(p, "not a valid cmpt", "", nil)
		}
		n := le.Uint32(h[12:])
		pos := int64(16)
		for i := range n {
			if i%1024 == 0 {
				if err := l.ctx.Err(); err != nil {
					return err
				}
			}
			if size-pos < 12 {
				return l.fail(p, fmt.Sprintf("cmpt inner tile at byte %d is cut short", off+pos), "", nil)
			}
			var ih [12]byte
			if _, err := r.ReadAt(ih[:], off+pos); err != nil {
				return l.fail(p, "cannot be read: "+err.Error(), "", err)
			}
			inner := int64(le.Uint32(ih[8:]))
			if inner < 12 || inner > size-pos {
				return l.fail(p, fmt.Sprintf("cmpt inner tile at byte %d has a bad length %d", off+pos, inner), "", nil)
			}
			if err := l.checkTile(p, r, off+pos, inner, depth+1); err != nil {
				return err
			}
			pos += inner
		}
	}
	return nil
}
