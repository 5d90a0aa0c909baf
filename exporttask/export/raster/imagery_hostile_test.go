package raster_test

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// sparseRGB writes a little-endian classic TIFF of an RGB image of
// side × side pixels of pixel degrees (EPSG:4326, north-west corner at
// 34, 32) in tiles of 4096 pixels, none of them written: a few hundred
// kilobytes that declare an image of any size.
func sparseRGB(t *testing.T, path string, side uint32, pixel float64) {
	t.Helper()
	le := binary.LittleEndian
	type entry struct {
		tag, typ uint16
		count    uint32
		data     []byte
	}
	put := func(tag, typ uint16, size int, n int, set func(b []byte, i int)) entry {
		b := make([]byte, size*n)
		for i := range n {
			set(b[size*i:], i)
		}
		return entry{tag, typ, uint32(n), b}
	}
	short := func(tag uint16, v ...uint16) entry {
		return put(tag, 3, 2, len(v), func(b []byte, i int) { le.PutUint16(b, v[i]) })
	}
	long := func(tag uint16, v ...uint32) entry {
		return put(tag, 4, 4, len(v), func(b []byte, i int) { le.PutUint32(b, v[i]) })
	}
	double := func(tag uint16, v ...float64) entry {
		return put(tag, 12, 8, len(v), func(b []byte, i int) { le.PutUint64(b, math.Float64bits(v[i])) })
	}
	tiles := int((side + 4095) / 4096)
	tiles *= tiles
	entries := []entry{
		long(256, side), long(257, side), short(258, 8, 8, 8), short(259, 1), short(262, 2), short(277, 3),
		short(284, 1), long(322, 4096), long(323, 4096), long(324, make([]uint32, tiles)...),
		long(325, make([]uint32, tiles)...), short(339, 1, 1, 1),
		double(33550, pixel, pixel, 0), double(33922, 0, 0, 0, 34, 32, 0),
		short(34735, 1, 1, 0, 2, 1024, 0, 1, 2, 2048, 0, 1, 4326),
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].tag < entries[j].tag })
	out := make([]byte, 8, 1<<20)
	copy(out, "II*\x00")
	le.PutUint32(out[4:], 8)
	ifd := make([]byte, 2+12*len(entries)+4)
	le.PutUint16(ifd, uint16(len(entries)))
	values := 8 + len(ifd)
	var tail []byte
	for i, e := range entries {
		b := ifd[2+12*i:]
		le.PutUint16(b, e.tag)
		le.PutUint16(b[2:], e.typ)
		le.PutUint32(b[4:], e.count)
		if len(e.data) <= 4 {
			copy(b[8:], e.data)
			continue
		}
		le.PutUint32(b[8:], uint32(values+len(tail)))
		tail = append(tail, e.data...)
	}
	out = append(append(out, ifd...), tail...)
	require.NoError(t, os.WriteFile(path, out, 0o644))
}

// TestImageryHugeDeclaredImage registers a small file declaring an RGB
// image of 2^20 × 2^20 pixels of about 10 cm: the record is made from its
// header alone, and an export of all of it fails with a permanent error
// naming the limit before allocating anything for its millions of
// tiles, while an export of a small region renders (black, unwritten)
// tiles (each source block meeting a coarse tile read one at a time) and
// completes.
func TestImageryHugeDeclaredImage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.tif")
	sparseRGB(t, path, 1<<20, 1e-6)
	rec, err := raster.Inspect(t.Context(), catalog.Source{Path: path})
	require.NoError(t, err)
	rec.ID, rec.Location = recordID, t.TempDir()
	require.Greater(t, rec.MaxZoom, 18)

	_, err = raster.New(raster.Options{TempDir: t.TempDir()}).Export(t.Context(), job(t, rec, exporttask.CreateRequest{}),
		testout.New(t.TempDir()))
	require.Error(t, err)
	assert.True(t, export.IsPermanent(err), "%v", err)
	assert.Contains(t, err.Error(), "MaxRenderedTiles")

	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.999, 34.1005, 32))}))
	tiles := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
	require.NotEmpty(t, tiles)
	for k, b := range tiles {
		m := decodeRGBA(t, b)
		// Unwritten blocks read as zeros, as GDAL reads them: black, opaque
		// without nodata or a mask (clear outside the image).
		black := 0
		for i := 0; i < len(m.Pix); i += 4 {
			switch p := [4]byte(m.Pix[i : i+4]); p {
			case [4]byte{0, 0, 0, 255}:
				black++
			case [4]byte{}:
			default:
				require.Failf(t, "not black", "tile %v pixel %d: %v", k, i/4, p)
			}
		}
		require.Positive(t, black, "tile %v", k)
	}
}
