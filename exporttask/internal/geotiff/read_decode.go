package geotiff

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/klauspost/compress/zlib"
	"io"
	"math"

	"golang.org/x/image/tiff/lzw"
)

// SampleType is a band's sample type in GDAL's names.
type SampleType string

// The sample types the reader decodes.
const (
	Int8    SampleType = "Int8"
	UInt8   SampleType = "Byte"
	Int16   SampleType = "Int16"
	UInt16  SampleType = "UInt16"
	Int32   SampleType = "Int32"
	UInt32  SampleType = "UInt32"
	Float32 SampleType = "Float32"
	Float64 SampleType = "Float64"
)

// SampleType returns the first band's sample type, or an error naming the
// BitsPerSample and SampleFormat when the reader does not decode them.
func (f *File) SampleType() (SampleType, error) {
	switch [2]int{f.BitsPerSample, f.SampleFormat} {
	case [2]int{8, 1}:
		return UInt8, nil
	case [2]int{8, 2}:
		return Int8, nil
	case [2]int{16, 1}:
		return UInt16, nil
	case [2]int{16, 2}:
		return Int16, nil
	case [2]int{32, 1}:
		return UInt32, nil
	case [2]int{32, 2}:
		return Int32, nil
	case [2]int{32, 3}:
		return Float32, nil
	case [2]int{64, 3}:
		return Float64, nil
	}
	format := map[int]string{1: "unsigned integer", 2: "signed integer", 3: "floating point", 4: "undefined", 5: "complex integer", 6: "complex floating point"}[f.SampleFormat]
	return "", errorf("%d-bit %s samples are not supported", f.BitsPerSample, format)
}

// CompressionName returns TIFF's name of a Compression value.
func CompressionName(c int) string {
	switch c {
	case compressionNone:
		return "none"
	case 2:
		return "CCITT RLE"
	case 3, 4:
		return "CCITT fax"
	case compressionLZW:
		return "LZW"
	case compressionOldJPEG, compressionJPEG:
		return "JPEG"
	case compressionDeflate, compressionDeflateOld:
		return "Deflate"
	case compressionPackBits:
		return "PackBits"
	case 34887:
		return "LERC"
	case 34925:
		return "LZMA"
	case 50000:
		return "ZSTD"
	case 50001:
		return "WebP"
	case 50002:
		return "JPEG XL"
	}
	return fmt.Sprintf("compression %d", c)
}

// Decodable reports whether the reader can decode the first band: a
// supported sample type, compression (none, LZW, Deflate, PackBits) and
// predictor (1, 2, or 3 on floating-point samples), each bit depth a whole
// number of bytes. The error names the first obstacle.
func (f *File) Decodable() error {
	if _, err := f.SampleType(); err != nil {
		return err
	}
	switch f.Compression {
	case compressionNone, compressionLZW, compressionDeflate, compressionDeflateOld, compressionPackBits:
	default:
		return errorf("%s compression is not supported", CompressionName(f.Compression))
	}
	switch f.Predictor {
	case 1, 2:
	case 3:
		if f.SampleFormat != 3 {
			return errorf("the floating-point predictor on integer samples is not supported")
		}
	default:
		return errorf("predictor %d is not supported", f.Predictor)
	}
	if f.PlanarConfig == 1 && f.SamplesPerPixel > 1 {
		// Chunky: every band must be as wide as the first for the pixel
		// stride to be spp × the first's size. GDAL writes one
		// BitsPerSample for all.
		if (f.BitsPerSample*f.SamplesPerPixel)%8 != 0 {
			return errorf("%d bands of %d bits are not supported", f.SamplesPerPixel, f.BitsPerSample)
		}
	}
	if n := f.blockSamples() * int64(f.BitsPerSample/8); n > MaxBlockBytes {
		return errorf("one %s holds %d bytes decoded, more than %d; rewrite the file tiled (gdal_translate -co TILED=YES)",
			map[bool]string{false: "strip", true: "tile"}[f.Tiled], n, MaxBlockBytes)
	}
	return nil
}

// pixelSamples is the samples of one pixel in a block: all bands when
// chunky, one when planar.
func (f *File) pixelSamples() int {
	if f.PlanarConfig == 2 {
		return 1
	}
	return f.SamplesPerPixel
}

// blockSamples is the samples of one full block.
func (f *File) blockSamples() int64 {
	return int64(f.BlockWidth) * int64(f.BlockHeight) * int64(f.pixelSamples())
}

// SampleBytes returns the bytes of one sample of the first band.
func (f *File) SampleBytes() int { return f.BitsPerSample / 8 }

// blockDecoder decodes blocks of one File, reusing its buffers. It is not
// safe for concurrent use.
type blockDecoder struct {
	f      *File
	raw    []byte // the stored block
	full   []byte // the decoded block, all bands
	tmp    []byte // the floating-point predictor's row
	zr     io.ReadCloser
	br     bytes.Reader
	read   int64 // bytes read from the file
	blocks int64 // blocks read
}

func newBlockDecoder(f *File) *blockDecoder { return &blockDecoder{f: f} }

// blockRows returns the rows of block row by that hold pixels: a strip at
// the bottom may be short; a tile is always whole.
func (f *File) blockRows(by int) int {
	if f.Tiled {
		return f.BlockHeight
	}
	return min(f.BlockHeight, f.Height-by*f.BlockHeight)
}

// decode reads block (bx, by) of the first band and returns its samples,
// little-endian, BlockWidth × blockRows(by) of them in rows: the first band
// only, the other bands of a chunky file dropped. The result is valid until
// the next call.
func (d *blockDecoder) decode(bx, by int) ([]byte, error) {
	f := d.f
	if bx < 0 || by < 0 || bx >= f.blocksAcross || by >= f.blocksDown {
		return nil, errorf("block (%d, %d) is outside the %dx%d blocks", bx, by, f.blocksAcross, f.blocksDown)
	}
	i := by*f.blocksAcross + bx
	kind := map[bool]string{false: "strip", true: "tile"}[f.Tiled]
	rows := f.blockRows(by)
	spp := f.pixelSamples()
	bps := f.SampleBytes()
	rowBytes := f.BlockWidth * spp * bps
	n := rows * rowBytes
	if cap(d.full) < n {
		d.full = make([]byte, n)
	}
	full := d.full[:n]
	off, count := f.offsets[i], f.counts[i]
	if limit := uint64(2*n + 4096); count > limit {
		return nil, errorf("%s %d is stored in %d bytes, more than %d for %d decoded bytes: the file is corrupt",
			kind, i, count, limit, n)
	}
	if count == 0 {
		// GDAL leaves blocks of nothing but nodata unwritten (sparse
		// files): they read as zero, or as the nodata value.
		return f.fillSparse(full), nil
	}
	if cap(d.raw) < int(count) {
		d.raw = make([]byte, count)
	}
	raw := d.raw[:count]
	if err := f.readAt(raw, off); err != nil {
		return nil, fmt.Errorf("%w (%s %d)", err, kind, i)
	}
	d.read += int64(count)
	d.blocks++
	if err := d.decompress(raw, full); err != nil {
		return nil, errorf("%s %d (%d bytes at offset %d): %w", kind, i, count, off, err)
	}
	if f.Predictor == 3 {
		if cap(d.tmp) < rowBytes {
			d.tmp = make([]byte, rowBytes)
		}
		for r := range rows {
			unpredictFloat(full[r*rowBytes:(r+1)*rowBytes], d.tmp[:rowBytes], bps, spp)
		}
	} else {
		if f.BigEndian {
			swap(full, bps)
		}
		if f.Predictor == 2 {
			for r := range rows {
				unpredictHorizontal(full[r*rowBytes:(r+1)*rowBytes], bps, spp)
			}
		}
	}
	if spp > 1 {
		// Keep the first band: pixel p's first sample moves to p·bps.
		for p := range rows * f.BlockWidth {
			copy(full[p*bps:(p+1)*bps], full[p*spp*bps:])
		}
		full = full[:rows*f.BlockWidth*bps]
	}
	return full, nil
}

// fillSparse fills an unwritten block with the nodata value (or zero).
func (f *File) fillSparse(b []byte) []byte {
	b = b[:len(b)/f.pixelSamples()]
	clear(b)
	if !f.HasNoData {
		return b
	}
	var one [8]byte
	if !EncodeSample(f, f.NoData, one[:]) {
		return b
	}
	bps := f.SampleBytes()
	for i := 0; i < len(b); i += bps {
		copy(b[i:i+bps], one[:bps])
	}
	return b
}

// decompress decodes raw into exactly len(dst) bytes.
func (d *blockDecoder) decompress(raw, dst []byte) error {
	return decompress(d.f.Compression, raw, dst, &d.br, &d.zr)
}

// decompress decodes raw, compressed with compression c (none, PackBits,
// LZW or Deflate), into exactly len(dst) bytes, reusing br and the zlib
// reader *zr (made at the first Deflate block).
func decompress(c int, raw, dst []byte, br *bytes.Reader, zr *io.ReadCloser) error {
	switch c {
	case compressionNone:
		if len(raw) < len(dst) {
			return fmt.Errorf("holds %d bytes, want %d", len(raw), len(dst))
		}
		copy(dst, raw)
		return nil
	case compressionPackBits:
		return unpackBits(raw, dst)
	case compressionLZW:
		br.Reset(raw)
		r := lzw.NewReader(br, lzw.MSB, 8)
		defer r.Close()
		return readFull(r, dst)
	case compressionDeflate, compressionDeflateOld:
		br.Reset(raw)
		if *zr == nil {
			z, err := zlib.NewReader(br)
			if err != nil {
				return fmt.Errorf("deflate: %w", err)
			}
			*zr = z
		} else if err := (*zr).(zlib.Resetter).Reset(br, nil); err != nil {
			return fmt.Errorf("deflate: %w", err)
		}
		return readFull(*zr, dst)
	}
	return fmt.Errorf("%s compression is not supported", CompressionName(c))
}

// readFull reads len(dst) bytes from r, naming a short stream.
func readFull(r io.Reader, dst []byte) error {
	n, err := io.ReadFull(r, dst)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("decodes to %d bytes, want %d", n, len(dst))
		}
		return err
	}
	return nil
}

// unpackBits decodes PackBits (TIFF 6.0, section 9) from src into exactly
// len(dst) bytes.
func unpackBits(src, dst []byte) error {
	o := 0
	for i := 0; o < len(dst); {
		if i >= len(src) {
			return fmt.Errorf("PackBits data decodes to %d bytes, want %d", o, len(dst))
		}
		n := int(int8(src[i]))
		i++
		switch {
		case n >= 0: // n+1 literal bytes
			k := n + 1
			if i+k > len(src) || o+k > len(dst) {
				return fmt.Errorf("PackBits literal run of %d bytes overruns the block", k)
			}
			copy(dst[o:], src[i:i+k])
			i += k
			o += k
		case n != -128: // one byte repeated 1-n times
			k := 1 - n
			if i >= len(src) || o+k > len(dst) {
				return fmt.Errorf("PackBits repeat run of %d bytes overruns the block", k)
			}
			b := src[i]
			i++
			for j := range k {
				dst[o+j] = b
			}
			o += k
		}
	}
	return nil
}

// swap reverses the bytes of each size-byte sample of b in place.
func swap(b []byte, size int) {
	switch size {
	case 2:
		for i := 0; i+1 < len(b); i += 2 {
			b[i], b[i+1] = b[i+1], b[i]
		}
	case 4:
		for i := 0; i+3 < len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], binary.BigEndian.Uint32(b[i:]))
		}
	case 8:
		for i := 0; i+7 < len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], binary.BigEndian.Uint64(b[i:]))
		}
	}
}

// unpredictHorizontal undoes Predictor 2 on one row of little-endian
// samples: each sample is the sum of itself and the same band's sample one
// pixel to the left, modulo 2^bits.
func unpredictHorizontal(row []byte, size, spp int) {
	stride := size * spp
	switch size {
	case 1:
		for i := stride; i < len(row); i++ {
			row[i] += row[i-stride]
		}
	case 2:
		for i := stride; i+1 < len(row); i += 2 {
			binary.LittleEndian.PutUint16(row[i:], binary.LittleEndian.Uint16(row[i:])+binary.LittleEndian.Uint16(row[i-stride:]))
		}
	case 4:
		for i := stride; i+3 < len(row); i += 4 {
			binary.LittleEndian.PutUint32(row[i:], binary.LittleEndian.Uint32(row[i:])+binary.LittleEndian.Uint32(row[i-stride:]))
		}
	case 8:
		for i := stride; i+7 < len(row); i += 8 {
			binary.LittleEndian.PutUint64(row[i:], binary.LittleEndian.Uint64(row[i:])+binary.LittleEndian.Uint64(row[i-stride:]))
		}
	}
}

// unpredictFloat undoes Predictor 3 (Adobe TIFF Technical Note 3) on one
// row of spp samples per pixel: the bytes are first summed left to right,
// each with the byte spp places before it (libtiff's byte-wise horizontal
// predictor), then they hold the samples' bytes grouped by significance,
// most significant group first; the result is the samples little-endian,
// whatever the file's byte order.
func unpredictFloat(row, tmp []byte, size, spp int) {
	for i := spp; i < len(row); i++ {
		row[i] += row[i-spp]
	}
	n := len(row) / size
	for k := range size { // significance group k: byte size-1-k of each sample
		g := row[k*n : (k+1)*n]
		for i, b := range g {
			tmp[i*size+size-1-k] = b
		}
	}
	copy(row, tmp)
}

// EncodeSample writes text (a GDAL_NODATA value) as one little-endian
// sample of f's first band into dst, reporting false when the value does
// not parse or cannot be held by the sample type.
func EncodeSample(f *File, text string, dst []byte) bool {
	t, err := f.SampleType()
	if err != nil {
		return false
	}
	return EncodeValue(t, text, dst)
}

// ParseNoData parses a GDAL_NODATA text as GDAL does: a number, or "nan",
// "inf", "-inf" in any case.
func ParseNoData(text string) (float64, bool) {
	return parseFloat(text)
}

// EncodeValue writes text as one little-endian sample of type t into dst
// (at least 8 bytes), reporting false when the value does not parse or t
// cannot hold it exactly.
func EncodeValue(t SampleType, text string, dst []byte) bool {
	v, ok := parseFloat(text)
	if !ok {
		return false
	}
	fits := func(lo, hi float64) bool { return v == math.Trunc(v) && v >= lo && v <= hi }
	switch t {
	case Int8:
		if !fits(math.MinInt8, math.MaxInt8) {
			return false
		}
		dst[0] = byte(int8(v))
	case UInt8:
		if !fits(0, math.MaxUint8) {
			return false
		}
		dst[0] = byte(v)
	case Int16:
		if !fits(math.MinInt16, math.MaxInt16) {
			return false
		}
		binary.LittleEndian.PutUint16(dst, uint16(int16(v)))
	case UInt16:
		if !fits(0, math.MaxUint16) {
			return false
		}
		binary.LittleEndian.PutUint16(dst, uint16(v))
	case Int32:
		if !fits(math.MinInt32, math.MaxInt32) {
			return false
		}
		binary.LittleEndian.PutUint32(dst, uint32(int32(v)))
	case UInt32:
		if !fits(0, math.MaxUint32) {
			return false
		}
		binary.LittleEndian.PutUint32(dst, uint32(v))
	case Float32:
		binary.LittleEndian.PutUint32(dst, math.Float32bits(float32(v)))
	case Float64:
		binary.LittleEndian.PutUint64(dst, math.Float64bits(v))
	default:
		return false
	}
	return true
}
