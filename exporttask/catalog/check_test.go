package catalog_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// registered writes size random bytes to dir/name and returns them with
// the Source a registration records of the file.
func registered(t *testing.T, dir, name string, size int) (string, []byte, catalog.Source) {
	t.Helper()
	p := filepath.Join(dir, name)
	b := make([]byte, size)
	r := rand.New(rand.NewPCG(uint64(size), 7))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	require.NoError(t, os.WriteFile(p, b, 0o644))
	st, err := os.Stat(p)
	require.NoError(t, err)
	content, quick, err := catalog.Fingerprints(context.Background(), p)
	require.NoError(t, err)
	return p, b, catalog.Source{Path: p, Format: "GTiff", Size: st.Size(), ModTime: st.ModTime(), Content: content, Quick: quick}
}

// rewrite writes b to p and gives it back the modification time mod: a
// rewrite that keeps size and time.
func rewrite(t *testing.T, p string, b []byte, mod time.Time) {
	t.Helper()
	require.NoError(t, os.WriteFile(p, b, 0o644))
	require.NoError(t, os.Chtimes(p, mod, mod))
}

func TestCheckStates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const size = 3*catalog.QuickBytes + 1000 // a middle the quick fingerprint does not read
	p, b, src := registered(t, dir, "dem.tif", size)
	later := src.ModTime.Add(time.Hour)

	assert.Equal(t, catalog.StateOK, src.Check(ctx, p, false).State)
	assert.Equal(t, catalog.StateOK, src.Check(ctx, p, true).State)

	// touch: the same content, another time.
	require.NoError(t, os.Chtimes(p, later, later))
	f := src.Check(ctx, p, false)
	assert.Equal(t, catalog.StateRefreshed, f.State)
	assert.True(t, f.Info.ModTime().Equal(later))
	assert.Equal(t, catalog.StateRefreshed, src.Check(ctx, p, true).State)

	// The header rewritten, size and time kept: the quick check sees it.
	head := append([]byte{}, b...)
	head[10] ^= 1
	rewrite(t, p, head, src.ModTime)
	f = src.Check(ctx, p, false)
	assert.Equal(t, catalog.StateChanged, f.State)
	assert.Contains(t, f.Why, "same size and modification time")
	// The last bytes too.
	tail := append([]byte{}, b...)
	tail[size-3] ^= 1
	rewrite(t, p, tail, src.ModTime)
	assert.Equal(t, catalog.StateChanged, src.Check(ctx, p, false).State)

	// The middle rewritten, size and time kept: only the full check (catalog
	// verify) sees it.
	middle := append([]byte{}, b...)
	middle[size/2] ^= 1
	rewrite(t, p, middle, src.ModTime)
	assert.Equal(t, catalog.StateOK, src.Check(ctx, p, false).State, "the quick check reads the ends only")
	assert.Equal(t, catalog.StateChanged, src.Check(ctx, p, true).State)
	// ... and a use after a touch, which reads the whole file.
	require.NoError(t, os.Chtimes(p, later, later))
	f = src.Check(ctx, p, false)
	assert.Equal(t, catalog.StateChanged, f.State)
	assert.Contains(t, f.Why, "content differs")

	// Another size.
	rewrite(t, p, b[:size-1], src.ModTime)
	f = src.Check(ctx, p, false)
	assert.Equal(t, catalog.StateChanged, f.State)
	assert.Contains(t, f.Why, "bytes, registered with")

	// Gone.
	require.NoError(t, os.Remove(p))
	f = src.Check(ctx, p, false)
	assert.Equal(t, catalog.StateMissing, f.State)
	assert.Equal(t, "does not exist", f.Why)

	// A record registered before fingerprints: time and size only.
	rewrite(t, p, b, src.ModTime)
	legacy := src
	legacy.Content, legacy.Quick = "", ""
	assert.Equal(t, catalog.StateOK, legacy.Check(ctx, p, false).State)
	require.NoError(t, os.Chtimes(p, later, later))
	assert.Equal(t, catalog.StateChanged, legacy.Check(ctx, p, false).State)
}

func TestCheckSmallFileAndDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p, b, src := registered(t, dir, "tilemapresource.xml", 900) // smaller than QuickBytes: read whole
	b[450] ^= 1
	rewrite(t, p, b, src.ModTime)
	assert.Equal(t, catalog.StateChanged, src.Check(ctx, p, false).State)

	// A tile directory without an index file: its entries' names.
	tiles := filepath.Join(dir, "xyz")
	for _, z := range []string{"5", "6"} {
		require.NoError(t, os.MkdirAll(filepath.Join(tiles, z), 0o755))
	}
	content, quick, err := catalog.Fingerprints(ctx, tiles)
	require.NoError(t, err)
	st, err := os.Stat(tiles)
	require.NoError(t, err)
	xyz := catalog.Source{Path: tiles, Format: "XYZ", Size: st.Size(), ModTime: st.ModTime(), Content: content, Quick: quick}
	later := st.ModTime().Add(time.Hour)
	require.NoError(t, os.Chtimes(tiles, later, later))
	assert.Equal(t, catalog.StateRefreshed, xyz.Check(ctx, tiles, false).State)
	require.NoError(t, os.Rename(filepath.Join(tiles, "6"), filepath.Join(tiles, "7")))
	require.NoError(t, os.Chtimes(tiles, later, later))
	xyz.ModTime = later
	got := xyz.Check(ctx, tiles, false)
	if got.Info.Size() == xyz.Size { // a directory's size may change with its entries
		assert.Equal(t, catalog.StateChanged, got.State)
	}
	assert.Equal(t, catalog.StateChanged, xyz.Check(ctx, tiles, true).State)
}

func TestCheckStopsWithTheContext(t *testing.T) {
	dir := t.TempDir()
	p, _, src := registered(t, dir, "dem.tif", 1000)
	later := src.ModTime.Add(time.Hour)
	require.NoError(t, os.Chtimes(p, later, later))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := src.Check(ctx, p, false)
	assert.Equal(t, catalog.StateMissing, f.State)
	assert.ErrorIs(t, f.Err, context.Canceled)
}

// TestVersionFollowsContent: the version of a source (its part of the dedup
// key) stays when only the modification time moves, and changes with the
// content.
func TestVersionFollowsContent(t *testing.T) {
	src := catalog.Source{Path: "/data/dem.tif", Format: "GTiff", Size: 10, ModTime: time.Unix(1000, 0),
		Content: strings.Repeat("a", 64), Quick: strings.Repeat("b", 64)}
	touched := src
	touched.ModTime = time.Unix(2000, 0)
	assert.Equal(t, src.Version(), touched.Version())
	other := src
	other.Content = strings.Repeat("c", 64)
	assert.NotEqual(t, src.Version(), other.Version())

	legacy := src
	legacy.Content, legacy.Quick = "", ""
	legacyTouched := legacy
	legacyTouched.ModTime = touched.ModTime
	assert.NotEqual(t, legacy.Version(), legacyTouched.Version(), "without a fingerprint the time is all there is")
}

func TestRefresh(t *testing.T) {
	root := t.TempDir()
	dataDir := t.TempDir()
	_, _, src := registered(t, dataDir, "dem.tif", 100)
	rec := demoRecord()
	rec.Source = &src
	require.NoError(t, catalog.WriteRecord(root, rec, nil))
	cat, err := catalog.Open(root)
	require.NoError(t, err)
	stored, err := cat.Record(context.Background(), rec.ID)
	require.NoError(t, err)

	later := src.ModTime.Add(time.Hour).Round(0)
	require.NoError(t, catalog.Refresh(stored.Location, *stored.Source, later))
	again, err := cat.Record(context.Background(), rec.ID)
	require.NoError(t, err)
	assert.True(t, again.Source.ModTime.Equal(later), "%v", again.Source.ModTime)
	assert.Equal(t, src.Content, again.Source.Content)
	entries, err := os.ReadDir(stored.Location)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")

	// A stale refresh (the record was refreshed, or registered again,
	// meanwhile) leaves the manifest alone.
	require.NoError(t, catalog.Refresh(stored.Location, *stored.Source, later.Add(time.Hour)))
	again, err = cat.Record(context.Background(), rec.ID)
	require.NoError(t, err)
	assert.True(t, again.Source.ModTime.Equal(later))
}

func TestReplaceCommand(t *testing.T) {
	rec := demoRecord()
	rec.Source = &catalog.Source{Path: "/data/my maps/relief.gpkg", Format: "GPKG", Table: "relief"}
	assert.Equal(t, "server catalog add -domain RASTER -id "+rasterID+" -table relief -replace '/data/my maps/relief.gpkg'",
		catalog.ReplaceCommand(rec))
	rec.Source = &catalog.Source{Path: "/data/xyz", Format: "XYZ"}
	assert.Equal(t, "server catalog add -domain RASTER -id "+rasterID+" -scheme xyz -replace /data/xyz", catalog.ReplaceCommand(rec))
	rec.Source = &catalog.Source{Path: "relief.gpkg", Format: "GPKG", Table: "it's"}
	assert.Equal(t, "server catalog add -domain RASTER -id "+rasterID+` -table 'it'\''s' -replace -copy relief.gpkg`,
		catalog.ReplaceCommand(rec))
}
