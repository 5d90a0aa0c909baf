package dem

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"runtime/metrics"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// tiffSpec is a one-band Int16 GeoTIFF in EPSG:4326 written by writeTIFF:
// strips (blockW = width) or tiles, each block stored as given (nil for an
// unwritten, sparse block).
type tiffSpec struct {
	width, height  int
	tiled          bool
	blockW, blockH int
	deflate        bool
	blocks         [][]byte
	west, north    float64
	pixel          float64
}

// writeTIFF writes spec as a little-endian classic TIFF: header, IFD, the
// IFD's values, then the blocks.
func writeTIFF(t *testing.T, path string, spec tiffSpec) int64 {
	t.Helper()
	type entry struct {
		tag, typ uint16
		count    uint32
		data     []byte
	}
	le := binary.LittleEndian
	short := func(tag uint16, v ...uint16) entry {
		b := make([]byte, 2*len(v))
		for i, x := range v {
			le.PutUint16(b[2*i:], x)
		}
		return entry{tag, 3, uint32(len(v)), b}
	}
	long := func(tag uint16, v ...uint32) entry {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			le.PutUint32(b[4*i:], x)
		}
		return entry{tag, 4, uint32(len(v)), b}
	}
	double := func(tag uint16, v ...float64) entry {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			le.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return entry{tag, 12, uint32(len(v)), b}
	}
	compression := uint16(1)
	if spec.deflate {
		compression = 8
	}
	n := len(spec.blocks)
	offTag, countTag := uint16(273), uint16(279)
	entries := []entry{
		long(256, uint32(spec.width)), long(257, uint32(spec.height)),
		short(258, 16), short(259, compression), short(262, 1), short(277, 1), short(284, 1), short(339, 2),
		double(33550, spec.pixel, spec.pixel, 0),
		double(33922, 0, 0, 0, spec.west, spec.north, 0),
		short(34735, 1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326),
	}
	if spec.tiled {
		offTag, countTag = 324, 325
		entries = append(entries, long(322, uint32(spec.blockW)), long(323, uint32(spec.blockH)))
	} else {
		entries = append(entries, long(278, uint32(spec.blockH)))
	}
	// Placeholders, filled once the blocks' offsets are known.
	entries = append(entries, long(offTag, make([]uint32, n)...), long(countTag, make([]uint32, n)...))
	sort.Slice(entries, func(i, j int) bool { return entries[i].tag < entries[j].tag })
	ifdLen := 2 + 12*len(entries) + 4
	valuesLen := 0
	for _, e := range entries {
		if len(e.data) > 4 {
			valuesLen += len(e.data) + len(e.data)%2
		}
	}
	at := uint32(8 + ifdLen + valuesLen)
	for _, e := range entries {
		switch e.tag {
		case offTag, countTag:
			for i, b := range spec.blocks {
				v := uint32(0)
				if b != nil {
					v = uint32(len(b))
					if e.tag == offTag {
						v = at
					}
				}
				le.PutUint32(e.data[4*i:], v)
				if e.tag == countTag {
					at += v
				}
			}
		}
	}
	var out bytes.Buffer
	out.WriteString("II*\x00")
	binary.Write(&out, le, uint32(8))
	ifd := make([]byte, ifdLen)
	le.PutUint16(ifd, uint16(len(entries)))
	var values []byte
	for i, e := range entries {
		p := ifd[2+12*i:]
		le.PutUint16(p, e.tag)
		le.PutUint16(p[2:], e.typ)
		le.PutUint32(p[4:], e.count)
		if len(e.data) <= 4 {
			copy(p[8:], e.data)
			continue
		}
		le.PutUint32(p[8:], uint32(8+ifdLen+len(values)))
		values = append(values, e.data...)
		if len(values)%2 == 1 {
			values = append(values, 0)
		}
	}
	out.Write(ifd)
	out.Write(values)
	for _, b := range spec.blocks {
		out.Write(b)
	}
	require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
	return int64(out.Len())
}

// heapAllocs returns the bytes allocated on the heap since the program
// started: its growth over a call bounds the call's peak heap from above.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// exportWithin registers path, exports box through an exporter with the
// given memory budget and returns the bytes the export allocated.
func exportWithin(t *testing.T, path string, budget int64, box [4]float64) (uint64, []exporttask.Artifact) {
	t.Helper()
	rec, err := Inspect(context.Background(), catalog.Source{Path: path})
	require.NoError(t, err)
	rec.ID, rec.Title, rec.Location = demoID, "wide DEM", filepath.Dir(path)
	roi := &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature, Properties: map[string]any{},
		Geometry: exporttask.NewPolygon([]exporttask.Position{
			{box[0], box[1]}, {box[2], box[1]}, {box[2], box[3]}, {box[0], box[3]}, {box[0], box[1]}}),
	}}}
	j := job(t, rec, roi)
	e := New(Options{MemoryBudget: budget, TempDir: t.TempDir()})
	out := testout.New(t.TempDir())
	before := heapAllocs()
	arts, err := e.Export(context.Background(), j, out)
	allocated := heapAllocs() - before
	require.NoError(t, err)
	return allocated, arts
}

// TestGlobalStripDEMExportsWithinTheBudget exports the full width of a
// global 1″ DEM strip: 1,296,000 × 16 Int16 pixels in one-row Deflate
// strips, a file of about 40 kB. The COG writer used to hold a row of
// tiles per level, 2.65 GB for this width; the whole export must now
// allocate less than its memory budget.
func TestGlobalStripDEMExportsWithinTheBudget(t *testing.T) {
	const width, height = 1296000, 16
	row := make([]byte, 2*width)
	var blocks [][]byte
	for y := range height {
		for x := range width {
			binary.LittleEndian.PutUint16(row[2*x:], uint16(200+(x/100000)+y))
		}
		var z bytes.Buffer
		zw, err := zlib.NewWriterLevel(&z, zlib.BestCompression)
		require.NoError(t, err)
		_, err = zw.Write(row)
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		blocks = append(blocks, z.Bytes())
	}
	path := filepath.Join(t.TempDir(), "strip.tif")
	size := writeTIFF(t, path, tiffSpec{width: width, height: height, blockW: width, blockH: 1, deflate: true,
		blocks: blocks, west: -180, north: 45, pixel: 1.0 / 3600})
	t.Logf("the source holds %d bytes", size)
	require.Less(t, size, int64(100_000))

	const budget = 256 << 20
	allocated, arts := exportWithin(t, path, budget, [4]float64{-180, 45 - 16.0/3600, 180, 45})
	t.Logf("the export allocated %.1f MB in all (budget %d MB)", float64(allocated)/1e6, budget>>20)
	assert.Less(t, allocated, uint64(budget), "the export's allocations stay within its budget")
	require.Len(t, arts, 3)
	assert.Greater(t, arts[0].Size, int64(0))
}

// TestSparseWideGeoTIFFExportsWithinTheBudget exports 16 full-width rows
// of a sparse GeoTIFF of under 1 kB: 1,296,000 × 1,024 Int16 pixels in 80
// tiles of 16,384 × 1,024, none of them written. The reader used to keep
// the whole decoded tiles of a block row the window meets (80 × 32 MB);
// the whole export must now allocate less than its memory budget.
func TestSparseWideGeoTIFFExportsWithinTheBudget(t *testing.T) {
	const width, height, tileW, tileH = 1296000, 1024, 16384, 1024
	path := filepath.Join(t.TempDir(), "sparse.tif")
	size := writeTIFF(t, path, tiffSpec{width: width, height: height, tiled: true, blockW: tileW, blockH: tileH,
		blocks: make([][]byte, (width+tileW-1)/tileW), west: -180, north: 45, pixel: 1.0 / 3600})
	t.Logf("the source holds %d bytes", size)
	require.Less(t, size, int64(1024))

	const budget = 256 << 20
	allocated, arts := exportWithin(t, path, budget, [4]float64{-180, 45 - 16.0/3600, 180, 45})
	t.Logf("the export allocated %.1f MB in all (budget %d MB)", float64(allocated)/1e6, budget>>20)
	assert.Less(t, allocated, uint64(budget), "the export's allocations stay within its budget")
	require.Len(t, arts, 3)
}

// TestTooWideWindowIsRefusedBeforeAllocating checks that a window whose
// rows alone would not fit a small budget is refused with a message
// saying so, before the export allocates for it.
func TestTooWideWindowIsRefusedBeforeAllocating(t *testing.T) {
	const width, tileW, tileH = 1296000, 16384, 16
	path := filepath.Join(t.TempDir(), "sparse.tif")
	writeTIFF(t, path, tiffSpec{width: width, height: tileH, tiled: true, blockW: tileW, blockH: tileH,
		blocks: make([][]byte, (width+tileW-1)/tileW), west: -180, north: 45, pixel: 1.0 / 3600})
	rec, err := Inspect(context.Background(), catalog.Source{Path: path})
	require.NoError(t, err)
	rec.ID, rec.Title, rec.Location = demoID, "wide DEM", filepath.Dir(path)
	j := job(t, rec, nil)
	e := New(Options{MemoryBudget: 32 << 20})
	before := heapAllocs()
	_, err = e.Estimate(context.Background(), j)
	allocated := heapAllocs() - before
	require.Error(t, err)
	var verr *exporttask.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Contains(t, err.Error(), "memory budget of 32 MB")
	assert.Less(t, allocated, uint64(32<<20))
}
