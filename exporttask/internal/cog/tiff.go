package cog

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// TIFF field types (TIFF 6.0 section 2; LONG8 from BigTIFF).
const (
	typeASCII  = 2
	typeShort  = 3
	typeLong   = 4
	typeDouble = 12
	typeLong8  = 16
)

// Tags this package writes.
const (
	tagNewSubfileType  = 254
	tagImageWidth      = 256
	tagImageLength     = 257
	tagBitsPerSample   = 258
	tagCompression     = 259
	tagPhotometric     = 262
	tagSamplesPerPixel = 277
	tagPlanarConfig    = 284
	tagPredictor       = 317
	tagTileWidth       = 322
	tagTileLength      = 323
	tagTileOffsets     = 324
	tagTileByteCounts  = 325
	tagSampleFormat    = 339
	tagModelPixelScale = 33550
	tagModelTiepoint   = 33922
	tagGeoKeyDirectory = 34735
	tagGDALNoData      = 42113
)

// ghost is GDAL's structural metadata block that marks a file as laid out
// for cloud access: every IFD before the tile data, tiles in row-major order
// per level, each tile preceded by its byte count (4 bytes) and followed by a
// copy of its last 4 bytes. The text, the trailing space and the
// "SIZE=%06d bytes" prefix are those GDAL 3.6 writes with -of COG.
const ghostBody = "LAYOUT=IFDS_BEFORE_DATA\n" +
	"BLOCK_ORDER=ROW_MAJOR\n" +
	"BLOCK_LEADER=SIZE_AS_UINT4\n" +
	"BLOCK_TRAILER=LAST_4_BYTES_REPEATED\n" +
	"KNOWN_INCOMPATIBLE_EDITION=NO\n" +
	" "

func ghost() []byte {
	return []byte(fmt.Sprintf("GDAL_STRUCTURAL_METADATA_SIZE=%06d bytes\n", len(ghostBody)) + ghostBody)
}

// field is one IFD entry with its value encoded little-endian.
type field struct {
	tag   uint16
	typ   uint16
	count uint64
	data  []byte
}

func shorts(tag uint16, v ...uint16) field {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return field{tag: tag, typ: typeShort, count: uint64(len(v)), data: b}
}

func longs(tag uint16, v ...uint32) field {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return field{tag: tag, typ: typeLong, count: uint64(len(v)), data: b}
}

// offsets encodes v as LONG in a classic TIFF and LONG8 in a BigTIFF.
func offsets(tag uint16, big bool, v []uint64) field {
	if !big {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
		return field{tag: tag, typ: typeLong, count: uint64(len(v)), data: b}
	}
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return field{tag: tag, typ: typeLong8, count: uint64(len(v)), data: b}
}

func doubles(tag uint16, v ...float64) field {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return field{tag: tag, typ: typeDouble, count: uint64(len(v)), data: b}
}

func ascii(tag uint16, s string) field {
	b := append([]byte(s), 0)
	return field{tag: tag, typ: typeASCII, count: uint64(len(b)), data: b}
}

// format holds the sizes that differ between classic TIFF and BigTIFF.
type format struct {
	big bool
}

func (f format) headerSize() int64 {
	if f.big {
		return 16
	}
	return 8
}

// entrySize, countSize and inline are the IFD entry size, the size of the
// entry count and of the next-IFD offset, and the most bytes a value can have
// and still sit in its entry.
func (f format) entrySize() int64 {
	if f.big {
		return 20
	}
	return 12
}

func (f format) countSize() int64 {
	if f.big {
		return 8
	}
	return 2
}

func (f format) inline() int {
	if f.big {
		return 8
	}
	return 4
}

// align is the boundary IFDs and out-of-line values start on.
func (f format) align() int64 {
	if f.big {
		return 8
	}
	return 2
}

func pad(n, a int64) int64 { return (n + a - 1) / a * a }

// sortFields sorts fields by tag, the order of an IFD's entries.
func sortFields(fields []field) []field {
	sort.Slice(fields, func(i, j int) bool { return fields[i].tag < fields[j].tag })
	return fields
}

// ifdSize is the number of bytes encodeIFD writes for fields.
func (f format) ifdSize(fields []field) int64 {
	n := f.countSize() + int64(len(fields))*f.entrySize() + f.offsetSize()
	for _, fd := range fields {
		if len(fd.data) > f.inline() {
			n = pad(n, f.align()) + int64(len(fd.data))
		}
	}
	return pad(n, f.align())
}

func (f format) offsetSize() int64 {
	if f.big {
		return 8
	}
	return 4
}

func (f format) putOffset(b []byte, v uint64) {
	if f.big {
		binary.LittleEndian.PutUint64(b, v)
	} else {
		binary.LittleEndian.PutUint32(b, uint32(v))
	}
}

// encodeIFD appends to dst the IFD of fields (sorted by tag, as TIFF
// requires) placed at file offset at, followed by its out-of-line values in
// the same order, each on an aligned boundary, and padding up to ifdSize;
// next is the offset of the next IFD (0 for none).
func (f format) encodeIFD(dst []byte, at int64, fields []field, next uint64) []byte {
	start := len(dst)
	size := f.ifdSize(fields)
	dst = append(dst, make([]byte, size)...)
	ifd := dst[start:]
	if f.big {
		binary.LittleEndian.PutUint64(ifd, uint64(len(fields)))
	} else {
		binary.LittleEndian.PutUint16(ifd, uint16(len(fields)))
	}
	extra := f.countSize() + int64(len(fields))*f.entrySize() + f.offsetSize()
	for i, fd := range fields {
		e := ifd[f.countSize()+int64(i)*f.entrySize():]
		binary.LittleEndian.PutUint16(e, fd.tag)
		binary.LittleEndian.PutUint16(e[2:], fd.typ)
		value := e[8:]
		if f.big {
			binary.LittleEndian.PutUint64(e[4:], fd.count)
			value = e[12:]
		} else {
			binary.LittleEndian.PutUint32(e[4:], uint32(fd.count))
		}
		if len(fd.data) <= f.inline() {
			copy(value, fd.data)
			continue
		}
		extra = pad(extra, f.align())
		f.putOffset(value, uint64(at+extra))
		copy(ifd[extra:], fd.data)
		extra += int64(len(fd.data))
	}
	f.putOffset(ifd[f.countSize()+int64(len(fields))*f.entrySize():], next)
	return dst
}

// header returns the TIFF header, pointing at the first IFD, followed by
// the ghost area and padding up to that IFD, whose offset it also returns.
func (f format) header() ([]byte, int64) {
	g := ghost()
	first := pad(f.headerSize()+int64(len(g)), f.align())
	b := make([]byte, first)
	copy(b, "II")
	if f.big {
		binary.LittleEndian.PutUint16(b[2:], 43)
		binary.LittleEndian.PutUint16(b[4:], 8)
		binary.LittleEndian.PutUint64(b[8:], uint64(first))
	} else {
		binary.LittleEndian.PutUint16(b[2:], 42)
		binary.LittleEndian.PutUint32(b[4:], uint32(first))
	}
	copy(b[f.headerSize():], g)
	return b, first
}
