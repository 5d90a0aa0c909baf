package geotiff

import (
	"encoding/binary"
	"math"
	"sort"
)

// TIFF field types (TIFF 6.0, section 2).
const (
	typeASCII  = 2
	typeShort  = 3
	typeLong   = 4
	typeDouble = 12
)

// Tags this package writes.
const (
	tagImageWidth       = 256
	tagImageLength      = 257
	tagBitsPerSample    = 258
	tagCompression      = 259
	tagPhotometric      = 262
	tagStripOffsets     = 273
	tagSamplesPerPixel  = 277
	tagRowsPerStrip     = 278
	tagStripByteCounts  = 279
	tagPlanarConfig     = 284
	tagPredictor        = 317
	tagSampleFormat     = 339
	tagModelPixelScale  = 33550
	tagModelTiepoint    = 33922
	tagGeoKeyDirectory  = 34735
	tagGDALNoData       = 42113
	headerSize          = 8
	ifdEntrySize        = 12
	maxClassicTIFFBytes = math.MaxUint32
)

// field is one IFD entry with its value already encoded little-endian.
type field struct {
	tag   uint16
	typ   uint16
	count uint32
	data  []byte
}

func shorts(tag uint16, v ...uint16) field {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return field{tag: tag, typ: typeShort, count: uint32(len(v)), data: b}
}

func longs(tag uint16, v ...uint32) field {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return field{tag: tag, typ: typeLong, count: uint32(len(v)), data: b}
}

func doubles(tag uint16, v ...float64) field {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return field{tag: tag, typ: typeDouble, count: uint32(len(v)), data: b}
}

func ascii(tag uint16, s string) field {
	b := append([]byte(s), 0)
	return field{tag: tag, typ: typeASCII, count: uint32(len(b)), data: b}
}

// encodeIFD lays out the header and one IFD starting at offset 8 and returns
// the bytes up to (not including) the first strip. Values longer than four
// bytes go after the IFD, each on a word boundary.
func encodeIFD(fields []field) []byte {
	sort.Slice(fields, func(i, j int) bool { return fields[i].tag < fields[j].tag })
	ifdLen := 2 + ifdEntrySize*len(fields) + 4
	extra := headerSize + ifdLen
	var tail []byte
	buf := make([]byte, headerSize+ifdLen)
	copy(buf, "II*\x00")
	binary.LittleEndian.PutUint32(buf[4:], headerSize)
	binary.LittleEndian.PutUint16(buf[headerSize:], uint16(len(fields)))
	for i, f := range fields {
		e := buf[headerSize+2+ifdEntrySize*i:]
		binary.LittleEndian.PutUint16(e[0:], f.tag)
		binary.LittleEndian.PutUint16(e[2:], f.typ)
		binary.LittleEndian.PutUint32(e[4:], f.count)
		if len(f.data) <= 4 {
			copy(e[8:12], f.data)
			continue
		}
		if (extra+len(tail))%2 == 1 {
			tail = append(tail, 0)
		}
		binary.LittleEndian.PutUint32(e[8:], uint32(extra+len(tail)))
		tail = append(tail, f.data...)
	}
	// The next-IFD offset stays 0: there is one image.
	out := append(buf, tail...)
	if len(out)%2 == 1 {
		out = append(out, 0)
	}
	return out
}
