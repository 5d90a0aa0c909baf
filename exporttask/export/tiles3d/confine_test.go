//go:build unix

package tiles3d

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// leafRegion is the region of the generated tiles: lon 34.5–34.6, lat
// 31.5–31.6, heights 0–100 m.
var leafRegion = fmt.Sprintf(`[%v,%v,%v,%v,0,100]`, 34.5*math.Pi/180, 31.5*math.Pi/180, 34.6*math.Pi/180, 31.6*math.Pi/180)

// leavesTileset writes a tileset whose root has n leaf children, each
// naming the content uri.
func leavesTileset(n int, uri string) string {
	var b strings.Builder
	b.Grow(100 + n*(90+len(leafRegion)))
	b.WriteString(`{"asset":{"version":"1.1"},"geometricError":10,"root":{"boundingVolume":{"region":` + leafRegion +
		`},"geometricError":5,"refine":"ADD","children":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"boundingVolume":{"region":` + leafRegion + `},"geometricError":0`)
		if uri != "" {
			b.WriteString(`,"content":{"uri":"` + uri + `"}`)
		}
		b.WriteByte('}')
	}
	b.WriteString("]}}")
	return b.String()
}

// gridGLB is a glb of a k×k vertex grid (2(k-1)² triangles) about 1 km
// wide, placed on the Earth at lon 34.55, lat 31.55.
func gridGLB(t *testing.T, k int) []byte {
	t.Helper()
	e := toECEF(34.55*math.Pi/180, 31.55*math.Pi/180, 50)
	m := &glb.Mesh{Translation: [3]float64{e[0], e[2], -e[1]}, Color: [4]float32{1, 1, 1, 1}}
	for y := range k {
		for x := range k {
			m.Positions = append(m.Positions, float32(x*1000/k), float32(y*1000/k), 0)
		}
	}
	for y := range k - 1 {
		for x := range k - 1 {
			i := uint32(y*k + x)
			m.Indices = append(m.Indices, i, i+1, i+uint32(k), i+1, i+uint32(k)+1, i+uint32(k))
		}
	}
	b, err := glb.Encode(m)
	require.NoError(t, err)
	return b
}

// register inspects dir as catalog add does and returns its record.
func register(t *testing.T, dir string) catalog.Record {
	t.Helper()
	rec, err := Inspect(context.Background(), catalog.Source{Path: dir})
	require.NoError(t, err)
	rec.ID, rec.Location = "5c9e8d7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f", t.TempDir()
	return rec
}

// exportWithin exports j, failing the test when the export has not ended
// within a minute.
func exportWithin(t *testing.T, j export.Job) (string, []exporttask.Artifact, error) {
	t.Helper()
	dir := t.TempDir()
	type result struct {
		arts []exporttask.Artifact
		err  error
	}
	done := make(chan result, 1)
	go func() {
		arts, err := New(Options{}).Export(context.Background(), j, testout.New(dir))
		done <- result{arts, err}
	}()
	select {
	case r := <-done:
		return dir, r.arts, r.err
	case <-time.After(time.Minute):
		t.Fatal("the export did not end within a minute")
		return "", nil, nil
	}
}

// checkReason checks that err is permanent with a reason holding each of
// want, and neither an absolute path nor a Go type name.
func checkReason(t *testing.T, err error, want ...string) {
	t.Helper()
	var pe *export.PermanentError
	require.ErrorAs(t, err, &pe)
	for _, w := range want {
		assert.Contains(t, pe.Reason, w)
	}
	assert.NotContains(t, pe.Reason, "/tmp")
	assert.NotContains(t, pe.Reason, os.TempDir())
	assert.NotContains(t, pe.Reason, "*")
	assert.NotContains(t, pe.Reason, "tiles3d.")
}

// TestHostileContent: a content file that is a link to a file outside
// the tileset (standing for /etc/shadow), a link to /dev/zero, a FIFO or
// a sparse file of 6 GiB is refused at catalog add, and, when it becomes
// so after catalog add, fails the export promptly with a reason naming
// the file inside the tileset.
func TestHostileContent(t *testing.T) {
	shadow := filepath.Join(t.TempDir(), "shadow")
	require.NoError(t, os.WriteFile(shadow, []byte("root:$6$secret:19000::::::\n"), 0o600))
	for name, c := range map[string]struct {
		want  string
		write func(t *testing.T, p string)
	}{
		"link outside":      {"leads outside the source", func(t *testing.T, p string) { require.NoError(t, os.Symlink(shadow, p)) }},
		"link to /dev/zero": {"leads outside the source", func(t *testing.T, p string) { require.NoError(t, os.Symlink("/dev/zero", p)) }},
		"FIFO":              {"is not a regular file (a FIFO)", func(t *testing.T, p string) { require.NoError(t, syscall.Mkfifo(p, 0o644)) }},
		"sparse 6 GiB": {"is larger than allowed", func(t *testing.T, p string) {
			f, err := os.Create(p)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(6<<30))
			require.NoError(t, f.Close())
		}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeTileset(t, map[string]string{TilesetFile: leavesTileset(2, ""), "a.glb": string(gridGLB(t, 4))})
			// Two leaves, the second naming b.i3dm: the hostile file.
			withJSON(t, dir, func(ts map[string]any) {
				kids := ts["root"].(map[string]any)["children"].([]any)
				kids[0].(map[string]any)["content"] = map[string]any{"uri": "a.glb"}
				kids[1].(map[string]any)["content"] = map[string]any{"uri": "b.i3dm"}
			})
			p := filepath.Join(dir, "b.i3dm")
			c.write(t, p)
			_, err := Inspect(context.Background(), catalog.Source{Path: dir})
			var se *export.SourceError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, err.Error(), "b.i3dm: "+c.want)

			require.NoError(t, os.Remove(p))
			require.NoError(t, os.WriteFile(p, i3dmHeader(64), 0o644))
			rec := register(t, dir)
			require.NoError(t, os.Remove(p))
			c.write(t, p)
			_, _, err = exportWithin(t, job(t, rec, nil))
			checkReason(t, err, "b.i3dm: "+c.want)
		})
	}
}

// i3dmHeader is an i3dm of size bytes whose header says its glTF is
// embedded.
func i3dmHeader(size int) []byte {
	b := make([]byte, size)
	copy(b, "i3dm")
	binary.LittleEndian.PutUint32(b[4:], 1)
	binary.LittleEndian.PutUint32(b[8:], uint32(size))
	binary.LittleEndian.PutUint32(b[28:], 1)
	return b
}

// TestLargeI3dmReadByItsHeader: catalog add of a 900 MiB (sparse) i3dm
// reads its header, not the file.
func TestLargeI3dmReadByItsHeader(t *testing.T) {
	dir := writeTileset(t, map[string]string{TilesetFile: leavesTileset(1, "big.i3dm")})
	p := filepath.Join(dir, "big.i3dm")
	require.NoError(t, os.WriteFile(p, i3dmHeader(32), 0o644))
	require.NoError(t, os.Truncate(p, 900<<20))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Inspect(context.Background(), catalog.Source{Path: dir})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20))
}

// TestHugeTilesetRefused: a tileset.json of 83 MB with a million children
// is refused by its size before it is read, and one under the size limit
// with more than MaxTiles tiles by its count, each with a clear reason.
func TestHugeTilesetRefused(t *testing.T) {
	huge := leavesTileset(1_000_000, "")
	big := writeTileset(t, map[string]string{TilesetFile: huge})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Inspect(context.Background(), catalog.Source{Path: big})
	runtime.ReadMemStats(&after)
	var se *export.SourceError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), fmt.Sprintf("tileset.json: is larger than allowed (%d bytes, the limit is %d)",
		len(huge), MaxJSONBytes))
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "refused before reading")

	many := leavesTileset(MaxTiles+1, "")
	require.Less(t, len(many), MaxJSONBytes)
	_, err = Inspect(context.Background(), catalog.Source{Path: writeTileset(t, map[string]string{TilesetFile: many})})
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), fmt.Sprintf("/root/children: the tileset holds more than %d tiles", MaxTiles))
}

// TestOneMeshNamedByManyLeaves: a glb of about 20,000 triangles named by
// 100 leaf tiles is read and decoded once, and as the leaves would draw
// 2 million triangles the thumbnails show the tiles' regions; with 10
// leaves they draw the meshes. Either way the export completes.
func TestOneMeshNamedByManyLeaves(t *testing.T) {
	mesh := gridGLB(t, 100)
	for _, c := range []struct {
		leaves int
		meshes bool
	}{{100, false}, {10, true}} {
		dir := writeTileset(t, map[string]string{TilesetFile: leavesTileset(c.leaves, "m.glb"), "m.glb": string(mesh)})
		rec := register(t, dir)
		p, err := New(Options{}).plan(context.Background(), job(t, rec, nil))
		require.NoError(t, err)
		require.Len(t, p.sel.leaves, c.leaves)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		tris, meshes, err := p.triangles(context.Background())
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		assert.Equal(t, c.meshes, meshes, "%d leaves", c.leaves)
		if !meshes {
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4*len(mesh)), "the mesh is decoded once, nothing placed")
		} else {
			assert.Len(t, tris, c.leaves*2*99*99)
		}
		_, arts, err := exportWithin(t, job(t, rec, nil))
		require.NoError(t, err)
		assert.Len(t, arts, 5)
	}
}

// TestRenderStopsWhenCancelled: the renderer looks at the context while it
// draws.
func TestRenderStopsWhenCancelled(t *testing.T) {
	rec := demoRecord(t)
	tri := triangle{{34.1, 31.1, 0}, {34.9, 31.1, 10}, {34.5, 31.9, 20}}
	tris := make([]triangle, 3*checkEvery)
	for i := range tris {
		tris[i] = tri
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := render(ctx, job(t, rec, nil), tris, thumbLarge)
	assert.ErrorIs(t, err, context.Canceled)
	// A drawing beyond maxRenderWork is given up: each of these triangles
	// covers most of the 512-pixel image.
	img, ok, err := render(context.Background(), job(t, rec, nil), tris, thumbLarge)
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Nil(t, img)
	_, ok, err = render(context.Background(), job(t, rec, nil), tris[:10], thumbLarge)
	require.NoError(t, err)
	assert.True(t, ok)
}
