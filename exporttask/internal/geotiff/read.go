package geotiff

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// MaxBlockBytes is the largest decoded strip or tile (of all bands of a
// chunky file) the reader accepts: a file whose blocks are larger is
// refused by [File.Decodable] rather than read into memory.
const MaxBlockBytes = 64 << 20

// Bounds on what a file may declare, so that malformed input cannot make
// the reader allocate or loop without end.
const (
	maxIFDEntries = 4096    // a real IFD has a few dozen
	maxIFDs       = 64      // full resolution, masks, overviews
	maxBlocks     = 1 << 24 // 16 M strips or tiles
	maxValueBytes = 1 << 27 // one tag's values: 128 MiB
	maxDimension  = 1 << 30 // pixels per side
)

// Header versions, NewSubfileType bits and Compression values.
const (
	classicTIFFVersion    = 42
	bigTIFFVersion        = 43
	subfileReduced        = 1 // an overview
	subfileMask           = 4 // a transparency mask
	compressionNone       = 1
	compressionLZW        = 5
	compressionOldJPEG    = 6
	compressionJPEG       = 7
	compressionDeflate    = 8
	compressionPackBits   = 32773
	compressionDeflateOld = 32946
)

// File is the full-resolution image of a TIFF file opened for reading by
// [Open]: its layout, sample type, compression and georeferencing, read
// from the first IFD that is neither an overview nor a mask. Its blocks
// (strips or tiles) are read on demand, so opening a multi-GB file reads
// only its IFDs.
type File struct {
	r     io.ReaderAt
	size  int64
	order binary.ByteOrder

	// BigTIFF is true for a BigTIFF (version 43) file.
	BigTIFF bool
	// BigEndian is true for a Motorola ("MM") file.
	BigEndian bool
	// Width and Height are the image's size in pixels.
	Width, Height int
	// SamplesPerPixel is the number of bands.
	SamplesPerPixel int
	// BitsPerSample is the size of one sample (of the first band).
	BitsPerSample int
	// SampleFormat is TIFF's SampleFormat: 1 unsigned integer, 2 signed
	// integer, 3 IEEE floating point.
	SampleFormat int
	// PlanarConfig is 1 (chunky: the bands of a pixel together) or 2
	// (planar: one block set per band).
	PlanarConfig int
	// Photometric is TIFF's PhotometricInterpretation (1 BlackIsZero, 2
	// RGB, ...).
	Photometric int
	// Compression is TIFF's Compression value.
	Compression int
	// Predictor is TIFF's Predictor: 1 none, 2 horizontal differencing, 3
	// floating point.
	Predictor int
	// Tiled is true when the image is stored in tiles, false for strips.
	Tiled bool
	// BlockWidth and BlockHeight are the size of a tile, or the width and
	// rows per strip of a strip.
	BlockWidth, BlockHeight int
	// Overviews counts the reduced-resolution IFDs after the full image.
	Overviews int
	// NoData is the GDAL_NODATA tag's text, trimmed; HasNoData says whether
	// the tag is present.
	NoData    string
	HasNoData bool
	// Geo holds the georeferencing tags and GeoKeys.
	Geo Geo

	offsets, counts []uint64
	blocksAcross    int
	blocksDown      int
	// ifds are every IFD's entries with its NewSubfileType, in file
	// order, for [File.Imagery].
	ifds []ifdEntries
}

// ifdEntries is one IFD as Open read it.
type ifdEntries struct {
	subfile uint64
	entries map[uint16]entry
}

// entry is one IFD entry as stored: its value is either inline (the raw
// bytes in inline) or at offset.
type entry struct {
	typ    uint16
	count  uint64
	inline []byte
	offset uint64
}

// typeSize returns the bytes of one value of a TIFF field type, 0 for an
// unknown type.
func typeSize(t uint16) int {
	switch t {
	case typeByte, typeASCII, typeSByte, typeUndefined:
		return 1
	case typeShort, typeSShort:
		return 2
	case typeLong, typeSLong, typeFloat, typeIFD:
		return 4
	case typeRational, typeSRational, typeDouble, typeLong8, typeSLong8, typeIFD8:
		return 8
	}
	return 0
}

// errorf returns an error of this package.
func errorf(format string, args ...any) error {
	return fmt.Errorf("geotiff: "+format, args...)
}

// Open reads the TIFF header and IFDs of the file r holds (size bytes) and
// returns its full-resolution image. It checks the structure (each block
// lies inside the file, sizes are in range) but not whether this package
// can decode the compression or sample type: [File.Decodable] says that.
// A truncated or malformed file is an error naming what is wrong.
func Open(r io.ReaderAt, size int64) (*File, error) {
	f := &File{r: r, size: size}
	var head [16]byte
	if size < 8 {
		return nil, errorf("the file holds %d bytes, too few for a TIFF header", size)
	}
	if err := f.readAt(head[:8], 0); err != nil {
		return nil, err
	}
	switch string(head[:2]) {
	case "II":
		f.order = binary.LittleEndian
	case "MM":
		f.order = binary.BigEndian
		f.BigEndian = true
	default:
		return nil, errorf("not a TIFF file (it starts with %q, not II or MM)", head[:2])
	}
	var ifd uint64
	switch v := f.order.Uint16(head[2:]); v {
	case classicTIFFVersion:
		ifd = uint64(f.order.Uint32(head[4:]))
	case bigTIFFVersion:
		f.BigTIFF = true
		if err := f.readAt(head[:16], 0); err != nil {
			return nil, err
		}
		if f.order.Uint16(head[4:]) != 8 || f.order.Uint16(head[6:]) != 0 {
			return nil, errorf("BigTIFF header has offset size %d, want 8", f.order.Uint16(head[4:]))
		}
		ifd = f.order.Uint64(head[8:])
	default:
		return nil, errorf("not a TIFF file (version %d, want 42 or 43)", v)
	}
	found := false
	seen := map[uint64]bool{}
	for n := 0; ifd != 0; n++ {
		if n == maxIFDs {
			return nil, errorf("more than %d IFDs", maxIFDs)
		}
		if seen[ifd] {
			return nil, errorf("IFD at offset %d is listed twice (a loop)", ifd)
		}
		seen[ifd] = true
		entries, next, err := f.readIFD(ifd)
		if err != nil {
			return nil, err
		}
		sub, err := f.uintValue(entries, tagNewSubfileType, 0)
		if err != nil {
			return nil, err
		}
		f.ifds = append(f.ifds, ifdEntries{subfile: sub, entries: entries})
		switch {
		case sub&subfileMask != 0:
		case sub&subfileReduced != 0:
			f.Overviews++
		case !found:
			if err := f.parseImage(entries); err != nil {
				return nil, err
			}
			found = true
		}
		ifd = next
	}
	if !found {
		return nil, errorf("no full-resolution image (every IFD is an overview or a mask)")
	}
	return f, nil
}

// readAt reads len(b) bytes at off, or fails naming what is past the end.
func (f *File) readAt(b []byte, off uint64) error {
	if off > uint64(f.size) || uint64(len(b)) > uint64(f.size)-off {
		return errorf("%d bytes at offset %d lie past the end of the file (%d bytes): the file is truncated or corrupt",
			len(b), off, f.size)
	}
	n, err := f.r.ReadAt(b, int64(off))
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return errorf("reading %d bytes at offset %d: %w", len(b), off, err)
}

// readIFD reads the IFD at off: its entries by tag and the next IFD's
// offset.
func (f *File) readIFD(off uint64) (map[uint16]entry, uint64, error) {
	countSize, entrySize, inlineSize := 2, 12, 4
	if f.BigTIFF {
		countSize, entrySize, inlineSize = 8, 20, 8
	}
	var cb [8]byte
	if err := f.readAt(cb[:countSize], off); err != nil {
		return nil, 0, fmt.Errorf("%w (reading the IFD at %d)", err, off)
	}
	var n uint64
	if f.BigTIFF {
		n = f.order.Uint64(cb[:])
	} else {
		n = uint64(f.order.Uint16(cb[:]))
	}
	if n == 0 || n > maxIFDEntries {
		return nil, 0, errorf("IFD at offset %d has %d entries", off, n)
	}
	buf := make([]byte, int(n)*entrySize+inlineSize)
	if err := f.readAt(buf, off+uint64(countSize)); err != nil {
		return nil, 0, fmt.Errorf("%w (reading the IFD at %d)", err, off)
	}
	entries := make(map[uint16]entry, n)
	for i := range int(n) {
		b := buf[i*entrySize:]
		tag := f.order.Uint16(b)
		e := entry{typ: f.order.Uint16(b[2:])}
		val := b[8:]
		if f.BigTIFF {
			e.count = f.order.Uint64(b[4:])
			val = b[12:]
		} else {
			e.count = uint64(f.order.Uint32(b[4:]))
		}
		ts := typeSize(e.typ)
		if ts == 0 {
			continue // an unknown type: TIFF readers skip the entry
		}
		if e.count > maxValueBytes/uint64(ts) {
			return nil, 0, errorf("tag %d holds %d values, too many", tag, e.count)
		}
		if int(e.count)*ts <= inlineSize {
			e.inline = val[:int(e.count)*ts]
		} else if f.BigTIFF {
			e.offset = f.order.Uint64(val)
		} else {
			e.offset = uint64(f.order.Uint32(val))
		}
		entries[tag] = e
	}
	next := buf[int(n)*entrySize:]
	if f.BigTIFF {
		return entries, f.order.Uint64(next), nil
	}
	return entries, uint64(f.order.Uint32(next)), nil
}

// raw returns the bytes of e's values.
func (f *File) raw(e entry) ([]byte, error) {
	if e.inline != nil {
		return e.inline, nil
	}
	n := e.count * uint64(typeSize(e.typ))
	if e.offset > uint64(f.size) || n > uint64(f.size)-e.offset {
		return nil, errorf("%d bytes of values at offset %d lie past the end of the file (%d bytes): the file is truncated or corrupt",
			n, e.offset, f.size)
	}
	b := make([]byte, n)
	if err := f.readAt(b, e.offset); err != nil {
		return nil, err
	}
	return b, nil
}

// uints returns the values of tag as unsigned integers (nil when absent).
func (f *File) uints(entries map[uint16]entry, tag uint16) ([]uint64, error) {
	e, ok := entries[tag]
	if !ok {
		return nil, nil
	}
	b, err := f.raw(e)
	if err != nil {
		return nil, fmt.Errorf("%w (tag %d)", err, tag)
	}
	v := make([]uint64, e.count)
	for i := range v {
		switch e.typ {
		case typeByte, typeUndefined:
			v[i] = uint64(b[i])
		case typeShort:
			v[i] = uint64(f.order.Uint16(b[2*i:]))
		case typeLong, typeIFD:
			v[i] = uint64(f.order.Uint32(b[4*i:]))
		case typeLong8, typeIFD8:
			v[i] = f.order.Uint64(b[8*i:])
		default:
			return nil, errorf("tag %d has type %d, want an unsigned integer", tag, e.typ)
		}
	}
	return v, nil
}

// uintValue returns the first value of tag, or def when it is absent.
func (f *File) uintValue(entries map[uint16]entry, tag uint16, def uint64) (uint64, error) {
	v, err := f.uints(entries, tag)
	if err != nil {
		return 0, err
	}
	if len(v) == 0 {
		return def, nil
	}
	return v[0], nil
}

// floats returns the values of tag as float64 (nil when absent).
func (f *File) floats(entries map[uint16]entry, tag uint16) ([]float64, error) {
	e, ok := entries[tag]
	if !ok {
		return nil, nil
	}
	b, err := f.raw(e)
	if err != nil {
		return nil, fmt.Errorf("%w (tag %d)", err, tag)
	}
	v := make([]float64, e.count)
	for i := range v {
		switch e.typ {
		case typeDouble:
			v[i] = math.Float64frombits(f.order.Uint64(b[8*i:]))
		case typeFloat:
			v[i] = float64(math.Float32frombits(f.order.Uint32(b[4*i:])))
		default:
			return nil, errorf("tag %d has type %d, want DOUBLE", tag, e.typ)
		}
	}
	return v, nil
}

// text returns the ASCII value of tag without its NUL terminator.
func (f *File) text(entries map[uint16]entry, tag uint16) (string, bool, error) {
	e, ok := entries[tag]
	if !ok {
		return "", false, nil
	}
	if e.typ != typeASCII {
		return "", false, errorf("tag %d has type %d, want ASCII", tag, e.typ)
	}
	b, err := f.raw(e)
	if err != nil {
		return "", false, fmt.Errorf("%w (tag %d)", err, tag)
	}
	return string(b), true, nil
}

// parseImage reads the full-resolution IFD's tags.
func (f *File) parseImage(entries map[uint16]entry) error {
	if _, ok := entries[tagImageWidth]; !ok {
		return errorf("the image has no ImageWidth tag")
	}
	if _, ok := entries[tagImageLength]; !ok {
		return errorf("the image has no ImageLength tag")
	}
	l, err := f.parseLayout(entries)
	if err != nil {
		return err
	}
	f.Width, f.Height, f.SamplesPerPixel, f.BitsPerSample, f.SampleFormat = l.width, l.height, l.spp, l.bits, l.format
	f.PlanarConfig, f.Photometric, f.Compression, f.Predictor = l.planar, l.photometric, l.compression, l.predictor
	f.Tiled, f.BlockWidth, f.BlockHeight = l.tiled, l.bw, l.bh
	f.offsets, f.counts, f.blocksAcross, f.blocksDown = l.offsets, l.counts, l.across, l.down
	if s, ok, err := f.text(entries, tagGDALNoData); err != nil {
		return err
	} else if ok {
		f.NoData, f.HasNoData = trimNoData(s), true
	}
	return f.parseGeo(entries)
}

// trimNoData strips the NUL terminator and spaces of a GDAL_NODATA value.
func trimNoData(s string) string {
	for len(s) > 0 && (s[len(s)-1] == 0 || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// BlocksAcross and BlocksDown return the grid of blocks (tiles or strips)
// of the full-resolution image.
func (f *File) BlocksAcross() int { return f.blocksAcross }

// BlocksDown returns the number of block rows; see [File.BlocksAcross].
func (f *File) BlocksDown() int { return f.blocksDown }

// BlockBytes returns the stored (compressed) size of block (bx, by) of the
// first band.
func (f *File) BlockBytes(bx, by int) int64 {
	return int64(f.counts[by*f.blocksAcross+bx])
}
