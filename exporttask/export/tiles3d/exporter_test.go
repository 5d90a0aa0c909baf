package tiles3d

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
	"github.com/openapi-viewer/viewer/exporttask/internal/stactest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// exported runs an export of j into a new directory.
func exported(t *testing.T, j export.Job) (string, []exporttask.Artifact, *testout.Dir) {
	t.Helper()
	dir := t.TempDir()
	out := testout.New(dir)
	arts, err := New(Options{}).Export(context.Background(), j, out)
	require.NoError(t, err)
	return dir, arts, out
}

// checkZip checks the zipped tileset as a client would read it: tileset
// JSON of version 1.1 whose content URIs all resolve to valid .glb entries,
// no entry that the JSON does not name, and every tile inside its parent.
// It returns the tileset and the number of content tiles.
func checkZip(t *testing.T, path string) (Tileset, int) {
	t.Helper()
	entries := readZip(t, path)
	raw, ok := entries[TilesetFile]
	require.True(t, ok, "zip has no %s", TilesetFile)
	var ts Tileset
	require.NoError(t, json.Unmarshal(raw, &ts))
	assert.Equal(t, "1.1", ts.Asset.Version)
	assert.Greater(t, ts.GeometricError, 0.0)
	named := map[string]bool{TilesetFile: true}
	var walk func(tl *Tile, parent *Tile, ptr string)
	walk = func(tl *Tile, parent *Tile, ptr string) {
		r := tl.BoundingVolume.Region
		require.Len(t, r, 6, ptr)
		if parent != nil {
			p := parent.BoundingVolume.Region
			assert.True(t, r[0] >= p[0] && r[1] >= p[1] && r[2] <= p[2] && r[3] <= p[3] && r[4] >= p[4] && r[5] <= p[5],
				"%s region %v outside its parent's %v", ptr, r, p)
			assert.LessOrEqual(t, tl.GeometricError, parent.GeometricError, ptr)
		}
		if tl.Content != nil {
			b, ok := entries[tl.Content.URI]
			require.True(t, ok, "%s/content/uri %q is not in the zip", ptr, tl.Content.URI)
			named[tl.Content.URI] = true
			_, _, err := glb.Chunks(b)
			require.NoError(t, err, tl.Content.URI)
			m, err := glb.Decode(b)
			require.NoError(t, err, tl.Content.URI)
			checkMeshInRegion(t, m, r, tl.Content.URI)
		}
		for i := range tl.Children {
			walk(&tl.Children[i], tl, ptr+"/children/"+string(rune('0'+i)))
		}
	}
	walk(&ts.Root, nil, "/root")
	for name := range entries {
		assert.True(t, named[name], "zip entry %s is not named by the tileset", name)
	}
	return ts, len(named) - 1
}

// checkMeshInRegion checks that the mesh's vertices, taken back to longitude,
// latitude and height, lie in the region (radians, meters).
func checkMeshInRegion(t *testing.T, m *glb.Mesh, r []float64, name string) {
	t.Helper()
	tr := fromGLTF(m.Translation)
	const tol = 1e-7 // radians, about a centimetre
	for i := 0; i < len(m.Positions); i += 3 {
		off := fromGLTF([3]float64{float64(m.Positions[i]), float64(m.Positions[i+1]), float64(m.Positions[i+2])})
		lon, lat, h := fromECEF([3]float64{tr[0] + off[0], tr[1] + off[1], tr[2] + off[2]})
		lon, lat = lon*degToRad, lat*degToRad
		if lon < r[0]-tol || lon > r[2]+tol || lat < r[1]-tol || lat > r[3]+tol || h < r[4]-0.5 || h > r[5]+0.5 {
			t.Fatalf("%s vertex %d at (%v, %v, %v) outside region %v", name, i/3, lon, lat, h, r)
		}
	}
}

const degToRad = 3.141592653589793 / 180

func TestExportTriangleROI(t *testing.T) {
	rec := demoRecord(t)
	j := job(t, rec, jobtest.Triangle())
	est, err := New(Options{}).Estimate(context.Background(), j)
	require.NoError(t, err)
	dir, arts, out := exported(t, j)

	require.Len(t, arts, 5)
	types := make([]exporttask.ArtifactType, len(arts))
	var names []string
	var total int64
	for i, a := range arts {
		types[i] = a.Type
		names = append(names, a.Name)
		total += a.Size
	}
	assert.Equal(t, []exporttask.ArtifactType{exporttask.Artifact3DModel, exporttask.ArtifactThumbnailsSmall,
		exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge, exporttask.ArtifactMetadata}, types)
	assert.ElementsMatch(t, names, files(t, dir), "nothing else in the output")
	assert.InEpsilon(t, total, est.Size, 0.25, "estimate %d, real %d", est.Size, total)

	ts, contentTiles := checkZip(t, filepath.Join(dir, arts[0].Name))
	// Every tile kept meets the triangle's box, and every source tile that
	// meets the triangle is kept.
	src, err := loadSource(context.Background(), filepath.Join(rec.Location, SourceDir))
	require.NoError(t, err)
	want := 0
	var count func(n *node)
	count = func(n *node) {
		if !j.IntersectsBox(shrink(n.region.box())) {
			return
		}
		if len(n.contents) > 0 {
			want++
		}
		for _, c := range n.children {
			count(c)
		}
	}
	count(src.main.root)
	assert.Equal(t, want, contentTiles)
	assert.Less(t, contentTiles, contentCount(src.main.root), "a subset, not everything")
	assert.Greater(t, contentTiles, 4)
	assert.Len(t, ts.Root.Children, 1, "one zoom-7 tile covers the footprint")

	// Progress: zip entries then thumbnails, never going back.
	reps := out.Reports()
	last := reps[len(reps)-1]
	assert.Equal(t, last[1], last[0])
	assert.EqualValues(t, contentTiles+1+3, last[1])
	for i := 1; i < len(reps); i++ {
		assert.GreaterOrEqual(t, reps[i][0], reps[i-1][0])
	}

	// Thumbnails: PNGs of the box's shape, transparent beyond the triangle.
	for i, long := range []int{128, 256, 512} {
		b, err := os.ReadFile(filepath.Join(dir, arts[1+i].Name))
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(b))
		require.NoError(t, err)
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		assert.Equal(t, long, w, "0.3° wide, 0.25° high")
		assert.Equal(t, int(float64(long)*0.25/0.3+0.5), h)
		_, _, _, aNE := img.At(w-2, 1).RGBA()
		_, _, _, aSW := img.At(1, h-2).RGBA()
		assert.Zero(t, aNE, "north-east corner is beyond the hypotenuse")
		assert.EqualValues(t, 0xffff, aSW, "south-west corner is in the triangle")
	}

	raw, err := os.ReadFile(filepath.Join(dir, arts[4].Name))
	require.NoError(t, err)
	meta := stactest.Check(t, raw, arts[:4])
	assert.Equal(t, demoID, meta.Property(t, "recordID"))
	assert.EqualValues(t, contentTiles, meta.Property(t, "contentTiles"))
	assert.EqualValues(t, 10, meta.Property(t, "maxZoom"))
	assert.Equal(t, "1.1", meta.Property(t, "tilesetVersion"))
	assert.Equal(t, []float64{34.2, 31.2, 34.5, 31.45}, meta.BBox)
	assert.JSONEq(t, `{"type":"Polygon","coordinates":[[[34.2,31.2],[34.5,31.2],[34.2,31.45],[34.2,31.2]]]}`,
		string(meta.Geometry), "the triangle, inside the footprint")
	assert.Equal(t, []string{"data"}, meta.Assets[arts[0].Name].Roles)
	assert.Equal(t, "application/zip", meta.Assets[arts[0].Name].Type)
}

func TestExportWholeRecord(t *testing.T) {
	rec := demoRecord(t)
	j := job(t, rec, nil)
	est, err := New(Options{}).Estimate(context.Background(), j)
	require.NoError(t, err)
	dir, arts, _ := exported(t, j)
	_, contentTiles := checkZip(t, filepath.Join(dir, arts[0].Name))
	src, err := loadSource(context.Background(), filepath.Join(rec.Location, SourceDir))
	require.NoError(t, err)
	assert.Equal(t, contentCount(src.main.root), contentTiles, "no ROI exports every tile")
	var total int64
	for _, a := range arts {
		total += a.Size
	}
	assert.InEpsilon(t, total, est.Size, 0.25, "estimate %d, real %d", est.Size, total)
}

func TestDemoMeshFollowsTheTerrain(t *testing.T) {
	rec := demoRecord(t)
	b, err := os.ReadFile(filepath.Join(rec.Location, SourceDir, "tiles/10/1219/333.glb"))
	require.NoError(t, err)
	m, err := glb.Decode(b)
	require.NoError(t, err)
	root, err := sourcefs.OpenRoot(filepath.Join(rec.Location, SourceDir))
	require.NoError(t, err)
	defer root.Close()
	tris, ok, err := tileTriangles(root, &node{xform: identity(), contents: []content{{file: "tiles/10/1219/333.glb", kind: "glb"}}}, "Y", map[string]*mesh{}, nil)
	require.NoError(t, err)
	require.True(t, ok, "the demo's meshes can be placed")
	require.Len(t, tris, 2*(gridVertices-1)*(gridVertices-1))
	assert.Len(t, m.Normals, len(m.Positions))
	// Each vertex, back in degrees, sits on the landscape; the first is
	// the tile's south-west corner.
	sw := tris[0][0]
	box := tileID{10, 1219, 333}.box()
	assert.InDelta(t, box.West, sw[0], 1e-7) // float32 offsets: about a centimetre
	assert.InDelta(t, box.South, sw[1], 1e-7)
	for _, tr := range tris[:50] {
		for _, v := range tr {
			assert.InDelta(t, terrainHeight(v[0], v[1]), v[2], 0.01)
		}
	}
	// Normals point up: the same way as the position from the Earth's centre.
	tr := fromGLTF(m.Translation)
	n := fromGLTF([3]float64{float64(m.Normals[0]), float64(m.Normals[1]), float64(m.Normals[2])})
	assert.Greater(t, (tr[0]*n[0]+tr[1]*n[1]+tr[2]*n[2])/len3(tr), 0.99)
}

func TestBadSourceIsPermanentAndLeavesNothing(t *testing.T) {
	setJSON := func(rec catalog.Record, s string) {
		require.NoError(t, os.WriteFile(filepath.Join(rec.Location, SourceDir, TilesetFile), []byte(s), 0o644))
	}
	cases := map[string]struct {
		spoil func(rec catalog.Record)
		want  string
	}{
		"missing tileset": {func(rec catalog.Record) { os.RemoveAll(filepath.Join(rec.Location, SourceDir)) }, "not a readable directory"},
		"corrupt json":    {func(rec catalog.Record) { setJSON(rec, "{") }, "malformed JSON at line 1"},
		"escaping uri": {func(rec catalog.Record) {
			setJSON(rec, `{"asset":{"version":"1.1"},"geometricError":1,"root":{"boundingVolume":{"region":[0.59,0.54,0.62,0.56,0,1000]},"geometricError":1,"content":{"uri":"../../etc/passwd"}}}`)
		}, "/root/content/uri"},
		"implicit tiling": {func(rec catalog.Record) {
			setJSON(rec, `{"asset":{"version":"1.1"},"geometricError":1,"root":{"boundingVolume":{"region":[0.59,0.54,0.62,0.56,0,1000]},"geometricError":1,"implicitTiling":{"subdivisionScheme":"QUADTREE","subtreeLevels":2,"availableLevels":2,"subtrees":{"uri":"s/{level}.subtree"}}}}`)
		}, "/root/implicitTiling: implicit tiling is not supported"},
		"missing content": {func(rec catalog.Record) {
			os.RemoveAll(filepath.Join(rec.Location, SourceDir, "tiles", "10"))
		}, "does not exist"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rec := demoRecord(t)
			c.spoil(rec)
			dir := t.TempDir()
			_, err := New(Options{}).Export(context.Background(), job(t, rec, jobtest.Triangle()), testout.New(dir))
			require.Error(t, err)
			assert.True(t, export.IsPermanent(err), "%v", err)
			assert.Contains(t, err.Error(), c.want)
			assert.Empty(t, files(t, dir))
		})
	}
}

func TestAbortLeavesNothing(t *testing.T) {
	rec := demoRecord(t)
	stop := errors.New("task aborted")
	for _, after := range []int{1, 3, 1000} { // in the zip (twice), never
		dir := t.TempDir()
		out := jobtest.StopAfter(testout.New(dir), after, stop)
		_, err := New(Options{}).Export(context.Background(), job(t, rec, nil), out)
		if after == 1000 {
			require.NoError(t, err)
			continue
		}
		assert.ErrorIs(t, err, stop)
		assert.Empty(t, files(t, dir), "the zip was not committed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	_, err := New(Options{}).Export(ctx, job(t, rec, nil), testout.New(dir))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, files(t, dir))
}

func TestWriteDemoSourceRejectsBadLevels(t *testing.T) {
	for name, c := range map[string]struct {
		min, max int
		want     string
	}{
		"inverted": {9, 8, "levels 9 to 8"},
		"too many": {7, 16, "more than 5000 tiles"},
		"negative": {-1, 3, "levels -1 to 3"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			rec := catalog.Record{ID: "x", Footprint: jobtest.DemoFootprint(), MinZoom: c.min, MaxZoom: c.max}
			err := WriteDemoSource(dir, rec)
			assert.ErrorContains(t, err, c.want)
			assert.Empty(t, files(t, dir), "nothing left behind")
		})
	}
}

// TestAreaWithoutExtentIsRefused: an area with no width is the client's
// region, refused at /ROI (export.CatalogExporter turns it into a permanent
// failure at export time), and nothing is written.
func TestAreaWithoutExtentIsRefused(t *testing.T) {
	rec := demoRecord(t)
	// A footprint that is a line (the record's data stays where it is):
	// the job's box has no width.
	rec.Footprint = exporttask.NewPolygon([]exporttask.Position{{34.5, 31}, {34.5, 32}, {34.5, 31}, {34.5, 31}})
	j := job(t, rec, nil)
	require.Zero(t, j.Box().Width())
	_, err := New(Options{}).Estimate(context.Background(), j)
	var ve *exporttask.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "/ROI", ve.Problems[0].Pointer)
	dir := t.TempDir()
	_, err = New(Options{}).Export(context.Background(), j, testout.New(dir))
	assert.ErrorContains(t, err, "no extent")
	assert.Empty(t, files(t, dir))
}

// contentCount counts the tiles with contents under n, n included.
func contentCount(n *node) int {
	c := 0
	if len(n.contents) > 0 {
		c++
	}
	for _, ch := range n.children {
		c += contentCount(ch)
	}
	return c
}

// TestShrinkKeepsAThinBoxTheRightWayRound: a tile whose region is a
// nanodegree tall (a vertical face) still meets a box around it.
func TestShrinkKeepsAThinBoxTheRightWayRound(t *testing.T) {
	thin := geom.BBox{West: 34.7999, South: 31.27 - 5e-10, East: 34.8001, North: 31.27 + 5e-10}
	s := shrink(thin)
	assert.Less(t, s.South, s.North)
	assert.Less(t, s.West, s.East)
	assert.True(t, geom.BBox{West: 34.799, South: 31.269, East: 34.801, North: 31.271}.Intersects(s))
	// An ordinary box still loses a nanodegree on each side.
	assert.Equal(t, geom.BBox{West: 34 + 1e-9, South: 31 + 1e-9, East: 35 - 1e-9, North: 32 - 1e-9},
		shrink(geom.BBox{West: 34, South: 31, East: 35, North: 32}))
}
