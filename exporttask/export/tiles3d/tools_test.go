package tiles3d

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// toolsDir holds the package.json that pins 3d-tiles-tools, the CesiumGS
// command line tools these tests build tilesets with: npm ci --prefix
// exporttask/export/tiles3d/testdata/tools --ignore-scripts.
const toolsDir = "testdata/tools"

// requireTools returns node's path and testdata/tools/build.mjs, or skips
// (fails when VIEWER_TEST_REQUIRE_3DTILES=1) the test.
func requireTools(t *testing.T) (node, script string) {
	t.Helper()
	missing := func(why string) {
		if os.Getenv(require3DTilesEnv) == "1" {
			t.Fatalf("%s and %s=1", why, require3DTilesEnv)
		}
		t.Skipf("%s (set %s=1 to fail instead)", why, require3DTilesEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node not found")
	}
	if _, err := os.Stat(filepath.Join(toolsDir, "node_modules", "3d-tiles-tools", "package.json")); err != nil {
		missing("3d-tiles-tools is not installed (npm ci --prefix exporttask/export/tiles3d/" + toolsDir + " --ignore-scripts)")
	}
	script, err = filepath.Abs(filepath.Join(toolsDir, "build.mjs"))
	require.NoError(t, err)
	return node, script
}

// build runs the steps (see testdata/tools/build.mjs) in one process.
func build(t *testing.T, steps []map[string]any) {
	t.Helper()
	node, script := requireTools(t)
	js, err := json.Marshal(steps)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "steps.json")
	require.NoError(t, os.WriteFile(p, js, 0o644))
	out, err := exec.Command(node, script, p).CombinedOutput()
	require.NoError(t, err, "3d-tiles-tools: %s", out)
}

// Where the test tilesets stand, and their layout: four flat squares of
// side square meters, their south-west corners at (0, 0), (spacing, 0),
// (0, spacing) and (spacing, spacing) meters east and north of the
// origin.
const (
	originLon, originLat, originH = 34.5, 31.5, 100.0
	square, spacing               = 100.0, 300.0
)

// squareGLB returns a glb holding a flat square of side square meters whose
// south-west corner is east and north meters from the local origin, at
// height up, in glTF's +Y-up axes (x east, y up, z south).
func squareGLB(t *testing.T, east, north, up float64) []byte {
	t.Helper()
	x0, x1 := float32(east), float32(east+square)
	z0, z1 := float32(-north), float32(-north-square)
	y := float32(up)
	m := &glb.Mesh{
		Positions: []float32{x0, y, z0, x1, y, z0, x1, y, z1, x0, y, z1},
		Normals:   []float32{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0},
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		Color:     [4]float32{0.6, 0.5, 0.4, 1},
	}
	b, err := glb.Encode(m)
	require.NoError(t, err)
	return b
}

// squares are the south-west corners of the four squares, by name.
var squares = []struct {
	name        string
	east, north float64
}{{"sw", 0, 0}, {"se", spacing, 0}, {"nw", 0, spacing}, {"ne", spacing, spacing}}

// b3dmSteps returns the steps that make, with 3d-tiles-tools, a 3D Tiles
// 1.0 tileset in dir: glbToB3dm turns the four squares (glb files written
// into a temporary directory) into b3dm files, createTilesetJson makes a
// tileset of box volumes under a root transform placing the local frame at
// (lon, lat, originH), and upgrade writes it as 3D Tiles 1.0.
func b3dmSteps(t *testing.T, dir string, lon, lat float64) []map[string]any {
	t.Helper()
	work := t.TempDir()
	var steps []map[string]any
	for _, s := range squares {
		g := filepath.Join(work, s.name+".glb")
		require.NoError(t, os.WriteFile(g, squareGLB(t, s.east, s.north, 0), 0o644))
		steps = append(steps, map[string]any{"cmd": "glbToB3dm", "input": g, "output": filepath.Join(work, "b3dm", s.name+".b3dm")})
	}
	return append(steps,
		map[string]any{"cmd": "createTilesetJson", "input": filepath.Join(work, "b3dm"), "output": filepath.Join(work, "b3dm", TilesetFile),
			"position": []float64{lon, lat, originH}},
		map[string]any{"cmd": "upgrade", "input": filepath.Join(work, "b3dm", TilesetFile), "output": dir})
}

// TestToolsTilesets builds tilesets with 3d-tiles-tools, then reads and
// exports them.
func TestToolsTilesets(t *testing.T) {
	fixture := t.TempDir()
	city := filepath.Join(fixture, fixtureCity)
	far := filepath.Join(fixture, fixtureFar)
	steps := b3dmSteps(t, city, originLon, originLat)
	steps = append(steps, b3dmSteps(t, far, originLon+0.1, originLat+0.1)...)
	steps = append(steps,
		map[string]any{"cmd": "merge", "inputs": []string{city, far}, "output": filepath.Join(fixture, fixtureMerged)},
		map[string]any{"cmd": "b3dmToGlb", "input": filepath.Join(city, "sw.b3dm"), "output": filepath.Join(fixture, fixtureGLB)},
		map[string]any{"cmd": "glbToI3dm", "input": filepath.Join(fixture, fixtureGLB), "output": filepath.Join(fixture, fixtureI3DM)})
	build(t, steps)
	t.Run("box volumes, 3D Tiles 1.0", func(t *testing.T) { testBoxTileset10(t, fixture) })
	t.Run("external tileset", func(t *testing.T) { testExternalTileset(t, fixture) })
	t.Run("sphere volumes", func(t *testing.T) { testSphereVolumes(t, fixture) })
	t.Run("contents and url", func(t *testing.T) { testContentsAndURL(t, fixture) })
	t.Run("thumbnail meshes", func(t *testing.T) { testThumbnailDrawsB3dmMeshes(t, fixture) })
	t.Run("i3dm content", func(t *testing.T) { testI3dmContent(t, fixture) })
}

// Tilesets built once by TestToolsTilesets, under fixture's directory.
const (
	fixtureCity   = "city"    // b3dmSteps at the origin
	fixtureFar    = "far"     // b3dmSteps 0.1° north-east
	fixtureMerged = "merged"  // merge of city and far
	fixtureGLB    = "sw.glb"  // b3dmToGlb of city/sw.b3dm
	fixtureI3DM   = "sw.i3dm" // glbToI3dm of sw.glb
)

// copyDir copies the directory src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
}

// testRecord is a 3D record of the source Inspect describes.
func testRecord(t *testing.T, src string) catalog.Record {
	t.Helper()
	rec, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	rec.ID = "5c9e8d7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f"
	rec.Title = "tools"
	rec.Location = t.TempDir()
	return rec
}

// roiAround returns a ROI of ±half meters around the point east and north
// meters from the local origin at (lon, lat).
func roiAround(lon, lat, east, north, half float64) *exporttask.FeatureCollection {
	m := 111320.0
	cLon := lon + east/(m*math.Cos(lat*math.Pi/180))
	cLat := lat + north/m
	dLon, dLat := half/(m*math.Cos(lat*math.Pi/180)), half/m
	return &exporttask.FeatureCollection{Type: "FeatureCollection", Features: []exporttask.Feature{{
		Type: "Feature", Geometry: exporttask.NewPolygon([]exporttask.Position{
			{cLon - dLon, cLat - dLat}, {cLon + dLon, cLat - dLat}, {cLon + dLon, cLat + dLat},
			{cLon - dLon, cLat + dLat}, {cLon - dLon, cLat - dLat}}),
	}}}
}

// exportChecked exports the job, then checks the zip: every entry that is
// not a tileset JSON is byte for byte the source file of the same path,
// the tileset JSON files name exactly the entries (by the independent
// reader when it is installed, and by this package's loader), and the npm
// reader reads it without error. It returns the entries.
func exportChecked(t *testing.T, rec catalog.Record, roi *exporttask.FeatureCollection) map[string][]byte {
	t.Helper()
	j := job(t, rec, roi)
	est, err := New(Options{}).Estimate(context.Background(), j)
	require.NoError(t, err)
	dir, arts, _ := exported(t, j)
	zipPath := filepath.Join(dir, arts[0].Name)
	entries := readZip(t, zipPath)
	var total int64
	for _, a := range arts {
		total += a.Size
	}
	// The thumbnails' share is an upper bound (these flat squares
	// compress far better than terrain); the rest is counted.
	p, err := New(Options{}).plan(context.Background(), j)
	require.NoError(t, err)
	thumbs := thumbnailEstimate(j, p.sel.leaves)
	var realThumbs int64
	for _, a := range arts[1:4] {
		realThumbs += a.Size
	}
	assert.GreaterOrEqual(t, est.Size, total, "estimate %d, real %d", est.Size, total)
	assert.InEpsilon(t, total-realThumbs, est.Size-thumbs, 0.3, "estimate %d, real %d without thumbnails", est.Size-thumbs, total-realThumbs)
	zipSize := arts[0].Size
	var content int64
	for name, b := range entries {
		if !strings.HasSuffix(name, ".json") {
			content += int64(len(b))
		}
	}
	assert.Less(t, content, zipSize, "the zip holds the contents' bytes")
	src := rec.Source.Path
	var names []string
	for name, b := range entries {
		names = append(names, name)
		if strings.HasSuffix(name, ".json") {
			continue
		}
		want, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
		require.NoError(t, err, name)
		assert.True(t, bytes.Equal(want, b), "%s is not the source's bytes", name)
	}
	// The zip, unpacked, is itself a tileset this package reads, naming
	// exactly what the zip holds.
	unpacked := t.TempDir()
	for name, b := range entries {
		p := filepath.Join(unpacked, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, b, 0o644))
	}
	s, err := loadSource(context.Background(), unpacked)
	require.NoError(t, err)
	assert.ElementsMatch(t, names, namedFiles(s), "the tileset JSON files name exactly the zip's entries")

	if node, modules, ok := reader(t); ok {
		rep, err := runReader(t, node, modules, zipPath)
		require.NoError(t, err, "reader errors: %v", rep.Errors)
		assert.Empty(t, rep.Errors)
		assert.Zero(t, rep.GLTFErrors)
		assert.ElementsMatch(t, rep.Entries, rep.Named, "the reader finds every entry named and nothing else")
		assert.ElementsMatch(t, names, rep.Entries)
	}
	return entries
}

// reader returns the npm reader when it is installed (and fails the test
// when it must be).
func reader(t *testing.T) (node, modules string, ok bool) {
	t.Helper()
	var skipped bool
	t.Run("npm reader", func(t *testing.T) {
		skipped = true
		node, modules = requireReader(t)
		skipped = false
	})
	return node, modules, !skipped
}

// namedFiles lists every file a source's tileset JSON files name,
// tileset.json included.
func namedFiles(s *source) []string {
	out := []string{TilesetFile}
	var tile func(n *node)
	var file func(f *tilesetFile)
	file = func(f *tilesetFile) {
		if f.schema != "" {
			out = append(out, f.schema)
		}
		tile(f.root)
	}
	tile = func(n *node) {
		for _, c := range n.contents {
			out = append(out, c.file)
			out = append(out, c.extra...)
			if c.external != nil {
				file(c.external)
			}
		}
		for _, ch := range n.children {
			tile(ch)
		}
	}
	file(s.main)
	slices.Sort(out)
	return slices.Compact(out)
}

// rawTileset decodes a tileset JSON as generic JSON.
func rawTileset(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func testBoxTileset10(t *testing.T, fixture string) {
	src := filepath.Join(t.TempDir(), "city")
	copyDir(t, filepath.Join(fixture, fixtureCity), src)
	rec := testRecord(t, filepath.Join(src, TilesetFile)) // the file is accepted too

	st, err := os.Stat(filepath.Join(src, TilesetFile))
	require.NoError(t, err)
	assert.Equal(t, src, rec.Source.Path, "the directory, absolute")
	assert.Equal(t, "3DTILES", rec.Source.Format)
	assert.Equal(t, st.Size(), rec.Source.Size)
	assert.True(t, st.ModTime().Equal(rec.Source.ModTime))
	assert.Equal(t, exporttask.Domain3D, rec.Domain)
	assert.Equal(t, 0, rec.MinZoom)
	assert.Equal(t, 1, rec.MaxZoom, "a root and its children")

	// The footprint holds the squares, placed independently of this
	// package, and is not much larger (the tools' root box is exact).
	fp, err := export.FromGeometry(rec.Footprint)
	require.NoError(t, err)
	want := squaresBox(originLon, originLat)
	got := fp.BBox()
	const slack = 1e-6 // degrees, about 10 cm
	assert.True(t, got.West <= want.West+slack && got.East >= want.East-slack && got.South <= want.South+slack && got.North >= want.North-slack,
		"footprint %+v does not hold the squares %+v", got, want)
	assert.InDelta(t, want.Width(), got.Width(), 1e-5)
	assert.InDelta(t, want.Height(), got.Height(), 1e-5)

	entries := exportChecked(t, rec, roiAround(originLon, originLat, square/2, square/2, 60))
	assert.ElementsMatch(t, []string{TilesetFile, "sw.b3dm"}, keys(entries), "only the south-west square")
	out := rawTileset(t, entries[TilesetFile])
	in := rawTileset(t, mustRead(t, filepath.Join(src, TilesetFile)))
	assert.Equal(t, in["asset"], out["asset"], "the asset is kept")
	assert.Equal(t, "1.0", out["asset"].(map[string]any)["version"])
	inRoot, outRoot := in["root"].(map[string]any), out["root"].(map[string]any)
	assert.Equal(t, inRoot["transform"], outRoot["transform"])
	assert.Equal(t, inRoot["boundingVolume"], outRoot["boundingVolume"])
	assert.Len(t, outRoot["children"], 1)
}

// squaresBox returns the lon/lat box of the four squares placed at
// (lon, lat, originH) by an east-north-up frame, computed with this
// test's own geodesy.
func squaresBox(lon, lat float64) geom.BBox {
	b := geom.BBox{West: 180, South: 90, East: -180, North: -90}
	for _, e := range []float64{0, square, spacing, spacing + square} {
		for _, n := range []float64{0, square, spacing, spacing + square} {
			p := enuPoint(lon, lat, originH, e, n, 0)
			lo, la, _ := bowring(p)
			b.West, b.East = math.Min(b.West, lo), math.Max(b.East, lo)
			b.South, b.North = math.Min(b.South, la), math.Max(b.North, la)
		}
	}
	return b
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return b
}

func testExternalTileset(t *testing.T, fixture string) {
	src := filepath.Join(fixture, fixtureMerged)
	a := fixtureCity

	rec := testRecord(t, src)
	assert.Equal(t, 3, rec.MaxZoom, "root, the tiles naming the external tilesets, their roots, their children")
	fp, err := export.FromGeometry(rec.Footprint)
	require.NoError(t, err)
	assert.True(t, holds(fp.BBox(), squaresBox(originLon, originLat)))
	assert.True(t, holds(fp.BBox(), squaresBox(originLon+0.1, originLat+0.1)))

	entries := exportChecked(t, rec, roiAround(originLon, originLat, spacing+square/2, square/2, 60))
	assert.ElementsMatch(t, []string{TilesetFile, a + "/" + TilesetFile, a + "/se.b3dm"}, keys(entries),
		"the external tileset a, cut to its south-east square; nothing of b")
	ext := rawTileset(t, entries[a+"/"+TilesetFile])
	srcExt := rawTileset(t, mustRead(t, filepath.Join(src, a, TilesetFile)))
	assert.Equal(t, srcExt["asset"], ext["asset"])
	assert.Equal(t, srcExt["root"].(map[string]any)["transform"], ext["root"].(map[string]any)["transform"])
	main := rawTileset(t, entries[TilesetFile])
	assert.Len(t, main["root"].(map[string]any)["children"], 1)

	// maxZoom 1 keeps the tiles that name the external tilesets but not
	// the external tilesets themselves.
	j := job(t, rec, nil)
	j = jobtest.WithParameters(t, j, map[string]any{ParamMaxZoom: 1.0})
	dir := t.TempDir()
	arts, err := New(Options{}).Export(context.Background(), j, testout.New(dir))
	require.NoError(t, err)
	got := readZip(t, filepath.Join(dir, arts[0].Name))
	assert.ElementsMatch(t, []string{TilesetFile}, keys(got))
	assert.NotContains(t, string(got[TilesetFile]), a+"/tileset.json")

	j = jobtest.WithParameters(t, j, map[string]any{ParamMaxZoom: 4.0})
	_, err = New(Options{}).Estimate(context.Background(), j)
	var ve *exporttask.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "/parameters/maxZoom", ve.Problems[0].Pointer)
}

// withJSON rewrites dir's tileset.json through edit.
func withJSON(t *testing.T, dir string, edit func(ts map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, TilesetFile)
	ts := rawTileset(t, mustRead(t, p))
	edit(ts)
	b, err := json.MarshalIndent(ts, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, b, 0o644))
}

func testSphereVolumes(t *testing.T, fixture string) {
	src := filepath.Join(t.TempDir(), "spheres")
	copyDir(t, filepath.Join(fixture, fixtureCity), src)
	// Every box becomes the sphere around it, in the same frame.
	withJSON(t, src, func(ts map[string]any) {
		var walk func(tl map[string]any)
		walk = func(tl map[string]any) {
			bv := tl["boundingVolume"].(map[string]any)
			bx := bv["box"].([]any)
			f := func(i int) float64 { return bx[i].(float64) }
			r := math.Sqrt(f(3)*f(3) + f(4)*f(4) + f(5)*f(5) + f(6)*f(6) + f(7)*f(7) + f(8)*f(8) + f(9)*f(9) + f(10)*f(10) + f(11)*f(11))
			tl["boundingVolume"] = map[string]any{"sphere": []any{f(0), f(1), f(2), r}}
			children, _ := tl["children"].([]any)
			for _, c := range children {
				walk(c.(map[string]any))
			}
		}
		walk(ts["root"].(map[string]any))
	})
	rec := testRecord(t, src)
	fp, err := export.FromGeometry(rec.Footprint)
	require.NoError(t, err)
	assert.True(t, holds(fp.BBox(), squaresBox(originLon, originLat)))

	entries := exportChecked(t, rec, roiAround(originLon, originLat, square/2, spacing+square/2, 60))
	assert.ElementsMatch(t, []string{TilesetFile, "nw.b3dm"}, keys(entries))
	assert.Contains(t, string(entries[TilesetFile]), `"sphere"`)
}

func testContentsAndURL(t *testing.T, fixture string) {
	src := filepath.Join(t.TempDir(), "contents")
	copyDir(t, filepath.Join(fixture, fixtureCity), src)
	// Beside the south-west b3dm, the glb 3d-tiles-tools extracted from it;
	// the south-west tile names both with contents (1.1), the others keep
	// content but with 1.0's url.
	copyFile(t, filepath.Join(fixture, fixtureGLB), filepath.Join(src, "sw.glb"))
	withJSON(t, src, func(ts map[string]any) {
		ts["asset"].(map[string]any)["version"] = "1.1"
		for _, c := range ts["root"].(map[string]any)["children"].([]any) {
			tl := c.(map[string]any)
			uri := tl["content"].(map[string]any)["uri"].(string)
			if uri == "sw.b3dm" {
				delete(tl, "content")
				tl["contents"] = []any{map[string]any{"uri": "sw.b3dm"}, map[string]any{"uri": "sw.glb"}}
			} else {
				tl["content"] = map[string]any{"url": uri}
			}
		}
	})
	rec := testRecord(t, src)
	entries := exportChecked(t, rec, roiAround(originLon, originLat, square/2, square/2, 60))
	assert.ElementsMatch(t, []string{TilesetFile, "sw.b3dm", "sw.glb"}, keys(entries))

	entries = exportChecked(t, rec, roiAround(originLon, originLat, spacing+square/2, spacing+square/2, 60))
	assert.ElementsMatch(t, []string{TilesetFile, "ne.b3dm"}, keys(entries))
	assert.Contains(t, string(entries[TilesetFile]), `"url":"ne.b3dm"`, "1.0's url is kept as written")
}

func testThumbnailDrawsB3dmMeshes(t *testing.T, fixture string) {
	rec := testRecord(t, filepath.Join(fixture, fixtureCity))
	j := job(t, rec, nil)
	p, err := New(Options{}).plan(context.Background(), j)
	require.NoError(t, err)
	tris, meshes, err := p.triangles(context.Background())
	require.NoError(t, err)
	require.True(t, meshes, "the b3dm's glb is placed")
	require.Len(t, tris, 8, "two triangles per square")
	// Every vertex lands on a square's corner, placed by this test's own
	// geodesy: the transform, glTF's +Y up and the b3dm are applied right.
	var corners [][3]float64
	for _, s := range squares {
		for _, c := range [][2]float64{{0, 0}, {square, 0}, {square, square}, {0, square}} {
			lo, la, h := bowring(enuPoint(originLon, originLat, originH, s.east+c[0], s.north+c[1], 0))
			corners = append(corners, [3]float64{lo, la, h})
		}
	}
	for _, tr := range tris {
		for _, v := range tr {
			best := math.Inf(1)
			for _, c := range corners {
				best = math.Min(best, math.Hypot((v[0]-c[0])*1e5, (v[1]-c[1])*1e5)+math.Abs(v[2]-c[2]))
			}
			assert.Less(t, best, 0.05, "vertex %v is on no square corner", v)
		}
	}
}

func TestInspectAcceptsTheDemo(t *testing.T) {
	rec := demoRecord(t)
	src := filepath.Join(rec.Location, SourceDir)
	got, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	assert.Equal(t, 0, got.MinZoom)
	assert.Equal(t, 4, got.MaxZoom, "levels 7 to 10 under a content-less root")
	fp, err := export.FromGeometry(got.Footprint)
	require.NoError(t, err)
	b := fp.BBox()
	assert.InDelta(t, 34, b.West, 1e-9)
	assert.InDelta(t, 35, b.East, 1e-9)
	assert.InDelta(t, 31, b.South, 1e-9)
	assert.InDelta(t, 32, b.North, 1e-9)

	// The same export through the registered source, with maxZoom in each
	// record's levels: 7 to 10 on the legacy record, 0 to 4 on the
	// registered one, so legacy 8 and registered 2 both stop two levels
	// below the root.
	got.ID, got.Location = rec.ID, t.TempDir()
	legacy := job(t, rec, nil)
	legacy = jobtest.WithParameters(t, legacy, map[string]any{ParamMaxZoom: 8.0})
	sourced := job(t, got, nil)
	sourced = jobtest.WithParameters(t, sourced, map[string]any{ParamMaxZoom: 2.0})
	var zips []map[string][]byte
	for _, j := range []export.Job{legacy, sourced} {
		dir := t.TempDir()
		arts, err := New(Options{}).Export(context.Background(), j, testout.New(dir))
		require.NoError(t, err)
		zips = append(zips, readZip(t, filepath.Join(dir, arts[0].Name)))
	}
	assert.Equal(t, zips[0], zips[1])
	for name := range zips[0] {
		assert.False(t, strings.HasPrefix(name, "tiles/9/") || strings.HasPrefix(name, "tiles/10/"), name)
	}
}

func TestExportFailsWhenTheSourceChanged(t *testing.T) {
	rec := demoRecord(t)
	src := filepath.Join(rec.Location, SourceDir)
	reg, err := Inspect(context.Background(), catalog.Source{Path: src})
	require.NoError(t, err)
	reg.ID, reg.Location = rec.ID, t.TempDir()
	p := filepath.Join(src, TilesetFile)
	later := reg.Source.ModTime.Add(time.Minute)
	require.NoError(t, os.Chtimes(p, later, later))
	dir := t.TempDir()
	_, err = New(Options{}).Export(context.Background(), job(t, reg, nil), testout.New(dir))
	require.Error(t, err)
	assert.True(t, export.IsPermanent(err), "%v", err)
	assert.Contains(t, err.Error(), "changed after it was registered")
	assert.Empty(t, files(t, dir))
}

// writeTileset writes files (slash paths) into a new directory.
func writeTileset(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

// tilesetJSON returns a tileset JSON of the given version whose root has
// a region and the given extra tile properties.
func tilesetJSON(version, rootExtra string) string {
	if rootExtra != "" {
		rootExtra = "," + rootExtra
	}
	return `{"asset":{"version":"` + version + `"},"geometricError":10,"root":{"boundingVolume":{"region":[0.6,0.54,0.61,0.55,0,100]},"geometricError":1` + rootExtra + `}}`
}

func TestInspectRefuses(t *testing.T) {
	ok := tilesetJSON("1.1", `"content":{"uri":"a.b3dm"}`)
	cases := map[string]struct {
		files map[string]string
		path  string // inside the directory; "" for the directory
		want  []string
	}{
		"no tileset.json":   {files: map[string]string{"a.b3dm": "x"}, want: []string{"no tileset.json in the directory"}},
		"not a directory":   {files: map[string]string{"root.json": ok, "a.b3dm": "x"}, path: "root.json", want: []string{"root.json: a 3D source is a tileset directory"}},
		"missing":           {files: map[string]string{}, path: "nowhere", want: []string{"no such file or directory"}},
		"malformed JSON":    {files: map[string]string{TilesetFile: "{\n  \"asset\": {\"version\": \"1.1\"},\n  \"root\": {,}\n}"}, want: []string{"tileset.json: malformed JSON at line 3, column 12", "fix the JSON"}},
		"wrong type":        {files: map[string]string{TilesetFile: tilesetJSON("1.1", `"children":{"a":1}`)}, want: []string{"/root/children", "fix the tileset JSON"}},
		"version 0.0":       {files: map[string]string{TilesetFile: tilesetJSON("0.0", "")}, want: []string{`/asset/version "0.0" is not supported`, "3d-tiles-tools upgrade"}},
		"version 2.0":       {files: map[string]string{TilesetFile: tilesetJSON("2.0", "")}, want: []string{`/asset/version "2.0" is not supported`}},
		"implicit tiling":   {files: map[string]string{TilesetFile: tilesetJSON("1.1", `"implicitTiling":{"subdivisionScheme":"QUADTREE"}`)}, want: []string{"/root/implicitTiling: implicit tiling is not supported"}},
		"implicit (1.0)":    {files: map[string]string{TilesetFile: `{"asset":{"version":"1.0"},"extensionsRequired":["3DTILES_implicit_tiling"],"root":{}}`}, want: []string{"3DTILES_implicit_tiling"}},
		"absolute path":     {files: map[string]string{TilesetFile: tilesetJSON("1.1", `"content":{"uri":"/etc/passwd.b3dm"}`)}, want: []string{"/root/content/uri", "is an absolute path", "inside its tileset directory"}},
		"parent directory":  {files: map[string]string{TilesetFile: tilesetJSON("1.1", `"children":[{"boundingVolume":{"sphere":[0,0,6378137,10]},"geometricError":0,"content":{"url":"../x.b3dm"}}]`)}, want: []string{"/root/children/0/content/url", "leaves the tileset directory"}},
		"URL":               {files: map[string]string{TilesetFile: tilesetJSON("1.1", `"contents":[{"uri":"a.b3dm"},{"uri":"https://example.com/b.b3dm"}]`), "a.b3dm": "x"}, want: []string{"/root/contents/1/uri", "is a URL"}},
		"missing content":   {files: map[string]string{TilesetFile: ok}, want: []string{"/root/content/uri: content a.b3dm does not exist", "copy the missing file in"}},
		"unknown content":   {files: map[string]string{TilesetFile: tilesetJSON("1.1", `"content":{"uri":"a.vctr"}`), "a.vctr": "x"}, want: []string{`content of type "vctr" is not supported`}},
		"local coordinates": {files: map[string]string{TilesetFile: `{"asset":{"version":"1.0"},"root":{"boundingVolume":{"box":[0,0,10,50,0,0,0,50,0,0,0,10]}}}`}, want: []string{"/root/boundingVolume/box: centred 10 m from the Earth's centre", "cartographicPositionDegrees"}},
		"gzipped":           {files: map[string]string{TilesetFile: "\x1f\x8b\x08\x00"}, want: []string{"tileset.json: gzip-compressed", "3d-tiles-tools ungzip"}},
		"no volume":         {files: map[string]string{TilesetFile: `{"asset":{"version":"1.0"},"root":{"geometricError":1}}`}, want: []string{"/root/boundingVolume: no region, box or sphere"}},
		"bad box":           {files: map[string]string{TilesetFile: `{"asset":{"version":"1.0"},"root":{"boundingVolume":{"box":[1,2,3]}}}`}, want: []string{"/root/boundingVolume/box: want 12 numbers"}},
		"cycle": {files: map[string]string{
			TilesetFile:  tilesetJSON("1.1", `"content":{"uri":"x/a.json"}`),
			"x/a.json":   tilesetJSON("1.0", `"content":{"uri":"../y/b.json"}`),
			"y/b.json":   tilesetJSON("1.1", `"content":{"uri":"../x/a.json"}`),
			"x/unused.b": "",
		}, want: []string{filepath.Join("y", "b.json") + ": /root/content/uri", "a cycle"}},
		"external named twice": {files: map[string]string{
			TilesetFile: tilesetJSON("1.1", `"children":[{"boundingVolume":{"region":[0.6,0.54,0.61,0.55,0,100]},"geometricError":0,"content":{"uri":"e.json"}},{"boundingVolume":{"region":[0.6,0.54,0.61,0.55,0,100]},"geometricError":0,"content":{"uri":"./e.json"}}]`),
			"e.json":    tilesetJSON("1.1", ""),
		}, want: []string{"/root/children/1/content/uri", "external tileset \"e.json\" is also named at"}},
		"gltf buffer outside": {files: map[string]string{
			TilesetFile: tilesetJSON("1.1", `"content":{"uri":"m/a.gltf"}`),
			"m/a.gltf":  `{"asset":{"version":"2.0"},"buffers":[{"uri":"../../b.bin","byteLength":4}]}`,
		}, want: []string{filepath.Join("m", "a.gltf") + ": /buffers/0/uri", "leaves the tileset directory"}},
		"i3dm by URI": {files: map[string]string{
			TilesetFile: tilesetJSON("1.1", `"content":{"uri":"a.i3dm"}`),
			"a.i3dm":    "i3dm\x01\x00\x00\x00\x20\x00\x00\x00" + strings.Repeat("\x00", 20),
		}, want: []string{"a.i3dm: the i3dm names its glTF by URI"}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := writeTileset(t, c.files)
			_, err := Inspect(context.Background(), catalog.Source{Path: filepath.Join(dir, c.path)})
			require.Error(t, err)
			var se *export.SourceError
			require.True(t, errors.As(err, &se), "%T %v", err, err)
			msg := err.Error()
			assert.NotContains(t, msg, "\n", "one line")
			assert.True(t, strings.HasPrefix(msg, dir), "%q names the file", msg)
			for _, w := range c.want {
				assert.Contains(t, msg, w)
			}
		})
	}
}

func TestInspectAcceptsGLTFWithItsFiles(t *testing.T) {
	dir := writeTileset(t, map[string]string{
		TilesetFile:    tilesetJSON("1.1", `"content":{"uri":"m/a%20b.gltf"}`),
		"m/a b.gltf":   `{"asset":{"version":"2.0"},"buffers":[{"uri":"data.bin","byteLength":4},{"uri":"data:application/octet-stream;base64,AAAAAA==","byteLength":4}],"images":[{"uri":"../tex/i.png"}]}`,
		"m/data.bin":   "abcd",
		"tex/i.png":    "png",
		"unrelated.b3": "not named",
	})
	rec, err := Inspect(context.Background(), catalog.Source{Path: dir})
	require.NoError(t, err)
	rec.ID, rec.Location = "5c9e8d7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f", t.TempDir()
	j := job(t, rec, nil)
	dirOut, arts, _ := exported(t, j)
	entries := readZip(t, filepath.Join(dirOut, arts[0].Name))
	assert.ElementsMatch(t, []string{TilesetFile, "m/a b.gltf", "m/data.bin", "tex/i.png"}, keys(entries))
	assert.Equal(t, "abcd", string(entries["m/data.bin"]))
}

// holds reports whether a holds b.
func holds(a, b geom.BBox) bool {
	return a.West <= b.West && a.East >= b.East && a.South <= b.South && a.North >= b.North
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, os.WriteFile(dst, mustRead(t, src), 0o644))
}

func TestInspectRefusesALinkOutOfTheDirectory(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.b3dm")
	require.NoError(t, os.WriteFile(outside, []byte("b3dm"), 0o644))
	dir := writeTileset(t, map[string]string{TilesetFile: tilesetJSON("1.1", `"content":{"uri":"a.b3dm"}`)})
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "a.b3dm")))
	_, err := Inspect(context.Background(), catalog.Source{Path: dir})
	var se *export.SourceError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), "a.b3dm: leads outside the source")
}

func TestSchemaAndFootprintThumbnail(t *testing.T) {
	// A 1.1 tileset with a schema file and point cloud content, which
	// the thumbnails cannot draw as meshes: they show the tiles' regions.
	child := func(w, e float64, uri string) string {
		return fmt.Sprintf(`{"boundingVolume":{"region":[%v,0.5497787,%v,0.5550147,0,50]},"geometricError":0,"content":{"uri":%q}}`,
			w*math.Pi/180, e*math.Pi/180, uri)
	}
	dir := writeTileset(t, map[string]string{
		TilesetFile: `{"asset":{"version":"1.1","tilesetVersion":"7"},"schemaUri":"meta/schema.json","extensionsUsed":["X"],"properties":{"h":{"minimum":0}},` +
			`"geometricError":10,"root":{"boundingVolume":{"region":[0.6021386,0.5497787,0.6108652,0.5550147,0,50]},"geometricError":5,"refine":"ADD","children":[` +
			child(34.5, 34.75, "p/a.pnts") + "," + child(34.75, 35, "p/b.pnts") + `]}}`,
		"meta/schema.json": `{"id":"s"}`,
		"p/a.pnts":         "pnts-a",
		"p/b.pnts":         "pnts-b",
	})
	rec, err := Inspect(context.Background(), catalog.Source{Path: dir})
	require.NoError(t, err)
	rec.ID, rec.Location = "5c9e8d7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f", t.TempDir()
	// The west half of the footprint: one of the two tiles.
	roi := &exporttask.FeatureCollection{Type: "FeatureCollection", Features: []exporttask.Feature{{Type: "Feature",
		Geometry: exporttask.NewPolygon([]exporttask.Position{{34.5, 31.5}, {34.7, 31.5}, {34.7, 31.8}, {34.5, 31.8}, {34.5, 31.5}})}}}
	out, arts, _ := exported(t, job(t, rec, roi))
	entries := readZip(t, filepath.Join(out, arts[0].Name))
	assert.ElementsMatch(t, []string{TilesetFile, "meta/schema.json", "p/a.pnts"}, keys(entries))
	js := rawTileset(t, entries[TilesetFile])
	assert.Equal(t, map[string]any{"version": "1.1", "tilesetVersion": "7"}, js["asset"])
	assert.Equal(t, []any{"X"}, js["extensionsUsed"])
	assert.Equal(t, "meta/schema.json", js["schemaUri"])
	assert.NotNil(t, js["properties"])

	img, err := png.Decode(bytes.NewReader(mustRead(t, filepath.Join(out, arts[3].Name))))
	require.NoError(t, err)
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	_, _, _, centre := img.At(w/2, h/2).RGBA()
	assert.EqualValues(t, 0xffff, centre, "the tile's region is drawn")
	r, g, b, _ := img.At(w/2, h/2).RGBA()
	tr, tg, tb := tint(50)
	assert.InDelta(t, tr, float64(r>>8), 1)
	assert.InDelta(t, tg, float64(g>>8), 1)
	assert.InDelta(t, tb, float64(b>>8), 1)
}

func testI3dmContent(t *testing.T, fixture string) {
	src := filepath.Join(t.TempDir(), "i3dm")
	copyDir(t, filepath.Join(fixture, fixtureCity), src)
	copyFile(t, filepath.Join(fixture, fixtureI3DM), filepath.Join(src, "sw.i3dm"))
	withJSON(t, src, func(ts map[string]any) {
		for _, c := range ts["root"].(map[string]any)["children"].([]any) {
			tl := c.(map[string]any)
			if tl["content"].(map[string]any)["uri"] == "sw.b3dm" {
				tl["content"] = map[string]any{"uri": "sw.i3dm"}
			}
		}
	})
	rec := testRecord(t, src)
	entries := exportChecked(t, rec, roiAround(originLon, originLat, square/2, square/2, 60))
	assert.ElementsMatch(t, []string{TilesetFile, "sw.i3dm"}, keys(entries))
	// The thumbnails cannot draw an i3dm: they show the tile's region.
	p, err := New(Options{}).plan(context.Background(), job(t, rec, roiAround(originLon, originLat, square/2, square/2, 60)))
	require.NoError(t, err)
	_, meshes, err := p.triangles(context.Background())
	require.NoError(t, err)
	assert.False(t, meshes)
}
