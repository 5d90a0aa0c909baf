package cog

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

var int16Type = sampleTypes[2]

func TestSmallImageIsOneTileWithoutOverviews(t *testing.T) {
	img := int16Type.image(100, 60, 0)
	path := writeFile(t, img, int16Type.rows(100), false)
	d := gdalInfo(t, path)
	assert.Equal(t, "COG", d.Metadata["IMAGE_STRUCTURE"]["LAYOUT"])
	assert.Equal(t, []int{100, 60}, d.Size)
	require.Len(t, d.Bands, 1)
	assert.Equal(t, []int{512, 512}, d.Bands[0].Block)
	assert.Empty(t, d.Bands[0].Overviews)
	got := readRaster(t, path, -1, kindInt16, 100, 60)
	for y := range 60 {
		for x := range 100 {
			require.Equal(t, int16Type.value(x, y), got[y*100+x], "pixel (%d, %d)", x, y)
		}
	}
	f := parseTIFF(t, path)
	require.Len(t, f.ifds, 1)
	assert.Len(t, f.ifds[0].offsets, 1)
}

// TestOverviewSizesMatchGDAL checks the number and sizes of the overview
// levels against GDAL's COG driver for awkward shapes: odd sizes, a side
// that reaches 1, exactly one tile.
func TestOverviewSizesMatchGDAL(t *testing.T) {
	create := gdaltest.Require(t, "gdal_create")
	translate := gdaltest.Require(t, "gdal_translate")
	for _, s := range [][2]int{{1001, 513}, {515, 515}, {2000, 3}, {513, 300}, {512, 512}, {129, 1}} {
		t.Run(strconv.Itoa(s[0])+"x"+strconv.Itoa(s[1]), func(t *testing.T) {
			dir := t.TempDir()
			src, ref := filepath.Join(dir, "src.tif"), filepath.Join(dir, "ref.tif")
			gdaltest.Run(t, create, "-q", "-of", "GTiff", "-outsize", strconv.Itoa(s[0]), strconv.Itoa(s[1]), "-ot", "Byte", "-a_srs", "EPSG:4326", "-a_ullr", "0", "1", "1", "0", src)
			gdaltest.Run(t, translate, "-q", "-of", "COG", "-co", "BLOCKSIZE=256", src, ref)
			var want [][]int
			for _, o := range gdalInfo(t, ref).Bands[0].Overviews {
				want = append(want, o.Size)
			}
			img := Image{Width: s[0], Height: s[1], BitsPerSample: 8, SampleFormat: 1, PixelWidth: 1, PixelHeight: 1, BlockSize: 256}
			var got [][]int
			for _, l := range img.levels()[1:] {
				got = append(got, []int{l.w, l.h})
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestBigTIFFReadsTheSame(t *testing.T) {
	st := sampleTypes[6] // Float32
	img := st.image(300, 170, 128)
	path := writeFile(t, img, st.rows(300), true)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, uint16(43), binary.LittleEndian.Uint16(raw[2:]), "BigTIFF version")
	d := gdalInfo(t, path)
	assert.Equal(t, "COG", d.Metadata["IMAGE_STRUCTURE"]["LAYOUT"])
	require.Len(t, d.Bands, 1)
	assert.Equal(t, "Float32", d.Bands[0].Type)
	require.Len(t, d.Bands[0].Overviews, 2)
	assert.Equal(t, []int{75, 42}, d.Bands[0].Overviews[1].Size)
	got := readRaster(t, path, -1, kindFloat32, 300, 170)
	for y := range 170 {
		for x := range 300 {
			require.True(t, same(st.value(x, y), got[y*300+x]), "pixel (%d, %d)", x, y)
		}
	}
	f := parseTIFF(t, path)
	f.checkLayout(t)
}

// TestLayout checks, by reading the bytes, what GDAL's COG layout asks
// for: the ghost area right after the header, every IFD before the first
// tile, the levels' tiles from the smallest level up, each row-major and
// contiguous, with the leader and trailer around each, and tiles of
// BlockSize² samples padded with zeros.
func TestLayout(t *testing.T) {
	img := int16Type.image(300, 200, 64)
	path := writeFile(t, img, int16Type.rows(300), false)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	g := ghost()
	assert.Equal(t, g, raw[8:8+len(g)])
	assert.Equal(t, "GDAL_STRUCTURAL_METADATA_SIZE=000140 bytes\n", string(g[:43]))
	f := parseTIFF(t, path)
	require.Len(t, f.ifds, 4)
	f.checkLayout(t)
	for i, ifd := range f.ifds {
		assert.Equal(t, uint64(min(i, 1)), ifd.tags[tagNewSubfileType], "NewSubfileType of IFD %d", i)
		assert.Equal(t, uint64(2), ifd.tags[tagPredictor])
		assert.Equal(t, uint64(8), ifd.tags[tagCompression])
	}
	// The bottom-right tile of full resolution: 300×200 in 64-pixel tiles
	// leaves 44×8 pixels; the rest must be zero.
	last := f.ifds[0]
	n := len(last.offsets) - 1
	zr, err := zlib.NewReader(bytes.NewReader(raw[last.offsets[n] : last.offsets[n]+last.counts[n]]))
	require.NoError(t, err)
	tile, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Len(t, tile, 64*64*2)
	for r := range 64 {
		// Undo the predictor on the row.
		row := tile[r*128 : (r+1)*128]
		for i := 2; i < len(row); i += 2 {
			binary.LittleEndian.PutUint16(row[i:], binary.LittleEndian.Uint16(row[i:])+binary.LittleEndian.Uint16(row[i-2:]))
		}
		for x := range 64 {
			v := int16(binary.LittleEndian.Uint16(row[2*x:]))
			if r < 8 && x < 44 {
				assert.Equal(t, int16(int16Type.value(256+x, 192+r)), v, "pixel (%d, %d)", 256+x, 192+r)
			} else if v != 0 {
				t.Fatalf("padding at tile (%d, %d) is %d, want 0", x, r, v)
			}
		}
	}
}

func TestProgressIsToldRowsByTileRow(t *testing.T) {
	img := int16Type.image(50, 300, 128)
	var seen []int
	_, err := Write(context.Background(), io.Discard, img, int16Type.rows(50), t.TempDir(), func(done int) error {
		seen = append(seen, done)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []int{128, 256, 300}, seen)
}

// failingWriter fails once it has taken limit bytes.
type failingWriter struct {
	limit int
	err   error
}

func (f *failingWriter) Write(b []byte) (int, error) {
	if len(b) > f.limit {
		n := f.limit
		f.limit = 0
		return n, f.err
	}
	f.limit -= len(b)
	return len(b), nil
}

func TestStopsAndCleansUp(t *testing.T) {
	img := int16Type.image(300, 700, 128)
	stop := errors.New("stop")
	for name, tc := range map[string]struct {
		run  func(ctx context.Context, cancel context.CancelFunc, scratch string) error
		want error
	}{
		"rows error": {func(ctx context.Context, _ context.CancelFunc, scratch string) error {
			_, err := Write(ctx, io.Discard, img, func(y int, buf []byte) error {
				if y == 300 {
					return stop
				}
				return int16Type.rows(300)(y, buf)
			}, scratch, nil)
			return err
		}, stop},
		"progress error": {func(ctx context.Context, _ context.CancelFunc, scratch string) error {
			_, err := Write(ctx, io.Discard, img, int16Type.rows(300), scratch, func(done int) error {
				if done >= 256 {
					return stop
				}
				return nil
			})
			return err
		}, stop},
		"cancelled while reading rows": {func(ctx context.Context, cancel context.CancelFunc, scratch string) error {
			_, err := Write(ctx, io.Discard, img, func(y int, buf []byte) error {
				if y == 400 {
					cancel()
				}
				return int16Type.rows(300)(y, buf)
			}, scratch, nil)
			return err
		}, context.Canceled},
		"cancelled while writing": {func(ctx context.Context, cancel context.CancelFunc, scratch string) error {
			w := writerFunc(func(b []byte) (int, error) {
				cancel()
				return len(b), nil
			})
			_, err := Write(ctx, w, img, int16Type.rows(300), scratch, nil)
			return err
		}, context.Canceled},
		"writer error": {func(ctx context.Context, _ context.CancelFunc, scratch string) error {
			_, err := Write(ctx, &failingWriter{limit: 5000, err: stop}, img, int16Type.rows(300), scratch, nil)
			return err
		}, stop},
	} {
		t.Run(name, func(t *testing.T) {
			scratch := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			err := tc.run(ctx, cancel, scratch)
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			assertEmpty(t, scratch)
		})
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func TestMissingScratchDirIsAnError(t *testing.T) {
	img := int16Type.image(10, 10, 0)
	_, err := Write(context.Background(), io.Discard, img, int16Type.rows(10), filepath.Join(t.TempDir(), "nope"), nil)
	assert.ErrorContains(t, err, "cog: creating a scratch file")
}

func TestValidate(t *testing.T) {
	good := int16Type.image(10, 10, 0)
	require.NoError(t, good.Validate())
	for name, tc := range map[string]struct {
		edit func(*Image)
		want string
	}{
		"zero width":     {func(i *Image) { i.Width = 0 }, "Width×Height 0×10"},
		"int64":          {func(i *Image) { i.BitsPerSample, i.SampleFormat = 64, 2 }, "BitsPerSample 64 with SampleFormat 2"},
		"float16":        {func(i *Image) { i.BitsPerSample, i.SampleFormat = 16, 3 }, "BitsPerSample 16 with SampleFormat 3"},
		"NaN west":       {func(i *Image) { i.West = nan() }, "the corner must be finite"},
		"negative pixel": {func(i *Image) { i.PixelHeight = -0.1 }, "PixelHeight -0.1"},
		"odd block":      {func(i *Image) { i.BlockSize = 100 }, "BlockSize 100"},
		"nodata text":    {func(i *Image) { i.NoData = "none" }, `NoData "none" is not a number`},
		"nodata empty":   {func(i *Image) { i.NoData = " " }, `NoData " " is not a number`},
	} {
		t.Run(name, func(t *testing.T) {
			img := good
			tc.edit(&img)
			err := img.Validate()
			assert.ErrorContains(t, err, tc.want)
			_, werr := Write(context.Background(), io.Discard, img, nil, t.TempDir(), nil)
			assert.Equal(t, err, werr, "Write validates first")
			assert.Zero(t, MaxSize(img))
		})
	}
}

// tiffFile is what parseTIFF reads of a file.
type tiffFile struct {
	raw        []byte
	big        bool
	ifdOffsets []uint64
	ifds       []tiffIFD
}

type tiffIFD struct {
	end     uint64 // the offset past the IFD and its values
	tags    map[uint16]uint64
	offsets []uint64
	counts  []uint64
}

// parseTIFF reads the IFD chain of a file this package wrote (little
// endian; classic or BigTIFF).
func parseTIFF(t *testing.T, path string) tiffFile {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	le := binary.LittleEndian
	f := tiffFile{raw: raw, big: le.Uint16(raw[2:]) == 43}
	var next uint64
	if f.big {
		next = le.Uint64(raw[8:])
	} else {
		next = uint64(le.Uint32(raw[4:]))
	}
	for next != 0 {
		f.ifdOffsets = append(f.ifdOffsets, next)
		ifd := tiffIFD{tags: map[uint16]uint64{}}
		var n, entry, at uint64 = 0, 12, next
		if f.big {
			n, entry, at = le.Uint64(raw[next:]), 20, next+8
		} else {
			n, at = uint64(le.Uint16(raw[next:])), next+2
		}
		ifd.end = at + n*entry + 4 // entries and the next IFD's offset
		if f.big {
			ifd.end += 4
		}
		for i := range n {
			e := raw[at+i*entry:]
			tag, typ := le.Uint16(e), le.Uint16(e[2:])
			var count uint64
			val := e[8:]
			if f.big {
				count, val = le.Uint64(e[4:]), e[12:]
			} else {
				count = uint64(le.Uint32(e[4:]))
			}
			size := map[uint16]uint64{2: 1, 3: 2, 4: 4, 12: 8, 16: 8}[typ]
			data := val
			inline := uint64(4)
			if f.big {
				inline = 8
			}
			if size*count > inline {
				var off uint64
				if f.big {
					off = le.Uint64(val)
				} else {
					off = uint64(le.Uint32(val))
				}
				data = raw[off : off+size*count]
				ifd.end = max(ifd.end, off+size*count)
			}
			values := make([]uint64, 0, count)
			for j := range count {
				switch size {
				case 2:
					values = append(values, uint64(le.Uint16(data[2*j:])))
				case 4:
					values = append(values, uint64(le.Uint32(data[4*j:])))
				case 8:
					values = append(values, le.Uint64(data[8*j:]))
				}
			}
			if len(values) > 0 && typ != 12 {
				ifd.tags[tag] = values[0]
			}
			switch tag {
			case tagTileOffsets:
				ifd.offsets = values
			case tagTileByteCounts:
				ifd.counts = values
			}
		}
		if f.big {
			next = le.Uint64(raw[at+n*entry:])
		} else {
			next = uint64(le.Uint32(raw[at+n*entry:]))
		}
		f.ifds = append(f.ifds, ifd)
	}
	return f
}

// checkLayout checks the COG layout of f (see TestLayout).
func (f tiffFile) checkLayout(t *testing.T) {
	t.Helper()
	le := binary.LittleEndian
	head := uint64(8)
	if f.big {
		head = 16
	}
	g := ghost()
	assert.Equal(t, g, f.raw[head:head+uint64(len(g))], "ghost area after the header")
	assert.Equal(t, pad(int64(head)+int64(len(g)), format{big: f.big}.align()), int64(f.ifdOffsets[0]), "first IFD right after the ghost area")
	lastIFDEnd := uint64(0)
	for i, o := range f.ifdOffsets {
		if i > 0 {
			assert.Greater(t, o, f.ifdOffsets[i-1], "IFDs in order, full resolution first")
		}
		lastIFDEnd = max(lastIFDEnd, f.ifds[i].end)
	}
	// The data: levels from the last IFD (smallest) to the first,
	// each contiguous with leader and trailer.
	at := uint64(pad(int64(lastIFDEnd), format{big: f.big}.align()))
	for i := len(f.ifds) - 1; i >= 0; i-- {
		ifd := f.ifds[i]
		require.Equal(t, len(ifd.offsets), len(ifd.counts))
		for j, off := range ifd.offsets {
			c := ifd.counts[j]
			require.Equal(t, at+4, off, "IFD %d tile %d follows the previous tile", i, j)
			assert.Equal(t, uint32(c), le.Uint32(f.raw[off-4:]), "IFD %d tile %d leader", i, j)
			assert.Equal(t, f.raw[off+c-4:off+c], f.raw[off+c:off+c+4], "IFD %d tile %d trailer", i, j)
			at = off + c + 4
		}
	}
	assert.Equal(t, uint64(len(f.raw)), at, "the file ends with the last tile")
}

// TestIntegerNoDataIsStoredAsGDALStoresIt writes Int16 grids whose nodata
// text a 16-bit integer cannot hold: the file gets the value GDAL's writer
// stores for the same request (gdal_translate -a_nodata), and the
// overviews leave out the same pixels as GDAL's.
func TestIntegerNoDataIsStoredAsGDALStoresIt(t *testing.T) {
	for _, nd := range []string{"0.5", "-40000", "nan"} {
		t.Run(nd, func(t *testing.T) {
			st := sampleType{name: "Int16", bits: 16, format: 2, noData: nd, enviType: 2}
			const w, h = 200, 150
			img := st.image(w, h, 128)
			require.NoError(t, img.Validate())
			path := writeFile(t, img, st.rows(w), false)
			ref := gdalReference(t, st, w, h, 128)
			assert.Equal(t, string(gdalInfo(t, ref).Bands[0].NoDataValue), string(gdalInfo(t, path).Bands[0].NoDataValue))
			ours := readRaster(t, path, 0, kindInt16, 100, 75)
			theirs := readRaster(t, ref, 0, kindInt16, 100, 75)
			compareOverview(t, st, 0, 100, ours, theirs)
		})
	}
}

// cogValidator returns the Python interpreter that has GDAL's COG validator
// (osgeo_utils.samples.validate_cloud_optimized_geotiff, Debian package
// python3-gdal), skipping the test without it or failing it when
// gdaltest.RequireEnv is 1.
func cogValidator(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import osgeo_utils.samples.validate_cloud_optimized_geotiff").Run() == nil {
			return py
		}
	}
	if os.Getenv(gdaltest.RequireEnv) == "1" {
		t.Fatalf("GDAL's COG validator not found and %s=1: install python3-gdal", gdaltest.RequireEnv)
	}
	t.Skip("GDAL's COG validator (python3-gdal) not installed")
	return ""
}

// TestGDALValidatorAccepts runs GDAL's own COG validator, with the check of
// every tile's leader and trailer, on files of several shapes.
func TestGDALValidatorAccepts(t *testing.T) {
	py := cogValidator(t)
	for name, tc := range map[string]struct {
		st     sampleType
		w, h   int
		bs     int
		bigTIF bool
	}{
		"Int16 with 3 overviews":   {sampleTypes[2], 600, 300, 128, false},
		"Float64 with 2 overviews": {sampleTypes[7], 300, 200, 128, false},
		"BigTIFF Float32":          {sampleTypes[6], 300, 200, 128, true},
		"one tile":                 {sampleTypes[1], 100, 50, 0, false},
		"3 pixels wide":            {sampleTypes[4], 3, 2000, 0, false},
	} {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, tc.st.image(tc.w, tc.h, tc.bs), tc.st.rows(tc.w), tc.bigTIF)
			out, err := exec.Command(py, "-m", "osgeo_utils.samples.validate_cloud_optimized_geotiff", "--full-check=yes", path).CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Contains(t, string(out), "is a valid cloud optimized GeoTIFF")
			assert.NotContains(t, string(out), "warning")
		})
	}
}

// TestOverviewsWithoutNoData compares overviews of images without nodata
// with GDAL's, which take other code paths (whole 2×2 blocks are averaged
// without a mask): one type for each of GDAL's paths (integer sums for
// Byte, float32 for Int16, float32 sums for Float32, Float64).
func TestOverviewsWithoutNoData(t *testing.T) {
	const w, h = 290, 170
	for _, st := range []sampleType{sampleTypes[1], sampleTypes[2], sampleTypes[6], sampleTypes[7]} {
		st.noData = ""
		t.Run(st.name, func(t *testing.T) {
			path := writeFile(t, st.image(w, h, 128), st.rows(w), false)
			ref := gdalReference(t, st, w, h, 128)
			for i, s := range [][2]int{{145, 85}, {72, 42}} {
				ours := readRaster(t, path, i, st.kind(), s[0], s[1])
				theirs := readRaster(t, ref, i, st.refKind(), s[0], s[1])
				compareOverview(t, st, i, s[0], ours, theirs)
			}
		})
	}
}

// TestBigTIFFPast4GiB checks the choice of format from the tile sizes
// known before writing: a file that would end past 4 GiB is a BigTIFF, with
// 8-byte tile offsets.
func TestBigTIFFPast4GiB(t *testing.T) {
	img := int16Type.image(1024, 512, 512)
	// pyramid returns the levels of img with tiles of the given sizes (the
	// overview's first), as flush records them.
	pyramidOf := func(sizes ...uint64) *pyramid {
		p := &pyramid{img: img}
		for _, l := range img.levels() {
			p.levels = append(p.levels, &level{w: l.w, h: l.h})
		}
		for i, size := range sizes {
			l := p.levels[0]
			if i == 0 {
				l = p.levels[1]
			}
			l.pos = append(l.pos, uint64(l.written)+4)
			l.sizes = append(l.sizes, size)
			l.written += int64(size) + 8
		}
		return p
	}
	const gib = 1 << 30

	under := pyramidOf(1000, 2*gib, 2*gib-10000)
	end, _ := under.layout(format{})
	require.Less(t, end, int64(4*gib))
	f, _ := under.format(false)
	assert.False(t, f.big, "a file ending at %d is a classic TIFF", end)

	over := pyramidOf(1000, 2*gib, 2*gib)
	end, _ = over.layout(format{})
	require.Greater(t, end, int64(4*gib))
	f, ifds := over.format(false)
	require.True(t, f.big, "a file ending at %d is a BigTIFF", end)
	var offs []uint64
	for _, fd := range ifds[0] {
		if fd.tag == tagTileOffsets {
			require.Equal(t, uint16(typeLong8), fd.typ)
			for i := 0; i < len(fd.data); i += 8 {
				offs = append(offs, binary.LittleEndian.Uint64(fd.data[i:]))
			}
		}
	}
	require.Len(t, offs, 2)
	assert.Equal(t, offs[0]+2*gib+8, offs[1], "the second tile follows the first, leader and trailer between")
}

// TestMaxSizeBoundsIncompressibleData writes random samples, which Deflate
// cannot shrink, and checks that MaxSize still bounds the file.
func TestMaxSizeBoundsIncompressibleData(t *testing.T) {
	for _, st := range []sampleType{sampleTypes[1], sampleTypes[7]} {
		t.Run(st.name, func(t *testing.T) {
			st.noData = ""
			img := st.image(300, 200, 128)
			rng := rand.New(rand.NewPCG(1, 2))
			var buf bytes.Buffer
			n, err := Write(context.Background(), &buf, img, func(y int, b []byte) error {
				for i := range b {
					b[i] = byte(rng.Uint32())
				}
				return nil
			}, t.TempDir(), nil)
			require.NoError(t, err)
			raw := int64(300 * 200 * st.bits / 8)
			t.Logf("%s: %d bytes of samples, file %d, MaxSize %d", st.name, raw, n, MaxSize(img))
			assert.Greater(t, n, raw, "random samples do not compress")
			assert.LessOrEqual(t, n, MaxSize(img))
		})
	}
}

// TestIFDSizeIsWhatEncodeWrites checks the size the layout relies on
// against the bytes written, with values of odd lengths that need padding.
func TestIFDSizeIsWhatEncodeWrites(t *testing.T) {
	for _, big := range []bool{false, true} {
		f := format{big: big}
		fields := sortFields([]field{
			ascii(tagGDALNoData, "-9999"), // 6 bytes
			shorts(tagBitsPerSample, 16),
			ascii(305, "software"), // 9 bytes, between the others
			doubles(tagModelPixelScale, 1, 2, 0),
			offsets(tagTileOffsets, big, []uint64{1, 2, 3}),
		})
		b := f.encodeIFD([]byte{1, 2}, 2, fields, 77)
		assert.Equal(t, f.ifdSize(fields), int64(len(b)-2), "big %v", big)
		assert.Zero(t, (len(b)-2)%int(f.align()), "the next IFD starts aligned")
	}
}
