package geotiff

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Compression is how strips are stored.
type Compression int

const (
	// None stores the samples as they are (TIFF Compression 1): the file
	// size follows from the geometry alone.
	None Compression = iota
	// Deflate stores each strip as a zlib stream (TIFF Compression 8) after
	// the floating-point predictor (Predictor 3).
	Deflate
)

// Image is the geometry of a north-up grid in EPSG:4326.
type Image struct {
	Width, Height int     // pixels
	West, North   float64 // the top-left corner of the top-left pixel, degrees
	PixelSize     float64 // degrees per pixel in both directions
	NoData        float64 // the value written where there is no data
	// RowsPerStrip is the strip height; default 16.
	RowsPerStrip int
	// Compression defaults to None.
	Compression Compression
}

// Rows fills row (len Width) with the samples of row y, 0 being the north
// edge. Encode asks for the rows in order, each once per pass (twice with
// Deflate).
type Rows func(y int, row []float32) error

// Progress is told how many rows have been written so far; an error stops
// the encoding and is returned.
type Progress func(rowsDone int) error

func (img Image) validate() error {
	switch {
	case img.Width <= 0 || img.Height <= 0:
		return fmt.Errorf("geotiff: image size %dx%d is not positive", img.Width, img.Height)
	case !(img.PixelSize > 0) || math.IsInf(img.PixelSize, 0):
		return fmt.Errorf("geotiff: pixel size %v is not positive", img.PixelSize)
	case math.IsNaN(img.West) || math.IsNaN(img.North):
		return errors.New("geotiff: corner coordinate is NaN")
	case img.RowsPerStrip < 0:
		return fmt.Errorf("geotiff: rows per strip %d is negative", img.RowsPerStrip)
	case img.Compression != None && img.Compression != Deflate:
		return fmt.Errorf("geotiff: unknown compression %d", img.Compression)
	}
	return nil
}

func (img Image) rowsPerStrip() int {
	if img.RowsPerStrip == 0 {
		return min(16, img.Height)
	}
	return min(img.RowsPerStrip, img.Height)
}

// Size returns the file size Encode writes for img without compression; for
// Deflate it is an upper bound in practice, not a promise.
func Size(img Image) (int64, error) {
	if err := img.validate(); err != nil {
		return 0, err
	}
	n := (img.Height + img.rowsPerStrip() - 1) / img.rowsPerStrip()
	head := encodeIFD(img.fields(make([]uint32, n), make([]uint32, n)))
	return int64(len(head)) + 4*int64(img.Width)*int64(img.Height), nil
}

// fields returns the IFD entries for the given strip offsets and sizes.
func (img Image) fields(offsets, counts []uint32) []field {
	compression := uint16(1)
	fs := []field{
		longs(tagImageWidth, uint32(img.Width)),
		longs(tagImageLength, uint32(img.Height)),
		shorts(tagBitsPerSample, 32),
		shorts(tagPhotometric, 1), // BlackIsZero
		longs(tagStripOffsets, offsets...),
		shorts(tagSamplesPerPixel, 1),
		longs(tagRowsPerStrip, uint32(img.rowsPerStrip())),
		longs(tagStripByteCounts, counts...),
		shorts(tagPlanarConfig, 1),
		shorts(tagSampleFormat, 3), // IEEE floating point
		doubles(tagModelPixelScale, img.PixelSize, img.PixelSize, 0),
		doubles(tagModelTiepoint, 0, 0, 0, img.West, img.North, 0),
		// Version 1.1.0, three keys: GTModelType geographic,
		// GTRasterType PixelIsArea, GeographicType WGS 84.
		shorts(tagGeoKeyDirectory, 1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326),
		ascii(tagGDALNoData, strconv.FormatFloat(img.NoData, 'g', -1, 64)),
	}
	if img.Compression == Deflate {
		compression = 8
		fs = append(fs, shorts(tagPredictor, 3))
	}
	return append(fs, shorts(tagCompression, compression))
}

// Encode writes img to w, pulling its rows from rows and reporting through
// progress (which may be nil). It returns the bytes written.
func Encode(w io.Writer, img Image, rows Rows, progress Progress) (int64, error) {
	if err := img.validate(); err != nil {
		return 0, err
	}
	rps := img.rowsPerStrip()
	n := (img.Height + rps - 1) / rps
	counts := make([]uint32, n)
	s := newStripper(img)
	if img.Compression == Deflate {
		for i := range n {
			b, err := s.strip(i, rows)
			if err != nil {
				return 0, err
			}
			counts[i] = uint32(len(b))
		}
	} else {
		for i := range n {
			counts[i] = uint32(4 * img.Width * min(rps, img.Height-i*rps))
		}
	}
	headLen := len(encodeIFD(img.fields(make([]uint32, n), counts)))
	offsets := make([]uint32, n)
	total := int64(headLen)
	for i, c := range counts {
		offsets[i] = uint32(total)
		total += int64(c)
	}
	if total > maxClassicTIFFBytes {
		return 0, fmt.Errorf("geotiff: %d bytes exceed a classic TIFF's 4 GiB", total)
	}
	written, err := w.Write(encodeIFD(img.fields(offsets, counts)))
	if err != nil {
		return int64(written), fmt.Errorf("geotiff: writing the header: %w", err)
	}
	done := int64(written)
	for i := range n {
		b, err := s.strip(i, rows)
		if err != nil {
			return done, err
		}
		if uint32(len(b)) != counts[i] {
			return done, fmt.Errorf("geotiff: strip %d changed size between passes (%d, then %d bytes)", i, counts[i], len(b))
		}
		k, err := w.Write(b)
		done += int64(k)
		if err != nil {
			return done, fmt.Errorf("geotiff: writing strip %d: %w", i, err)
		}
		if progress != nil {
			if err := progress(min((i+1)*rps, img.Height)); err != nil {
				return done, err
			}
		}
	}
	return done, nil
}

// stripper encodes strips, reusing its buffers.
type stripper struct {
	img Image
	row []float32
	raw []byte
	tmp []byte
	out bytes.Buffer
	zw  *zlib.Writer
}

func newStripper(img Image) *stripper {
	s := &stripper{img: img, row: make([]float32, img.Width), raw: make([]byte, 4*img.Width*img.rowsPerStrip())}
	if img.Compression == Deflate {
		s.tmp = make([]byte, 4*img.Width)
		s.zw = zlib.NewWriter(&s.out)
	}
	return s
}

// strip returns the encoded bytes of strip i, valid until the next call.
func (s *stripper) strip(i int, rows Rows) ([]byte, error) {
	rps := s.img.rowsPerStrip()
	y0 := i * rps
	h := min(rps, s.img.Height-y0)
	rowBytes := 4 * s.img.Width
	raw := s.raw[:h*rowBytes]
	for y := range h {
		clear(s.row)
		if err := rows(y0+y, s.row); err != nil {
			return nil, fmt.Errorf("geotiff: row %d: %w", y0+y, err)
		}
		dst := raw[y*rowBytes : (y+1)*rowBytes]
		for x, v := range s.row {
			binary.LittleEndian.PutUint32(dst[4*x:], math.Float32bits(v))
		}
		if s.img.Compression == Deflate {
			predictFloat(dst, s.tmp)
		}
	}
	if s.img.Compression == None {
		return raw, nil
	}
	s.out.Reset()
	s.zw.Reset(&s.out)
	if _, err := s.zw.Write(raw); err != nil {
		return nil, fmt.Errorf("geotiff: compressing strip %d: %w", i, err)
	}
	if err := s.zw.Close(); err != nil {
		return nil, fmt.Errorf("geotiff: compressing strip %d: %w", i, err)
	}
	return s.out.Bytes(), nil
}

// predictFloat applies TIFF's floating-point predictor (Adobe TIFF
// Technical Note 3) to one row of little-endian float32 samples in place:
// the bytes are regrouped by significance, most significant first, then
// each byte is replaced by its difference from the byte before it. tmp must
// be as long as row.
func predictFloat(row, tmp []byte) {
	n := len(row) / 4
	for i := range n {
		for b := range 4 {
			// Little-endian byte b is plane 3-b (plane 0 holds the sign
			// and exponent's top bits).
			tmp[(3-b)*n+i] = row[4*i+b]
		}
	}
	for i := len(tmp) - 1; i > 0; i-- {
		tmp[i] -= tmp[i-1]
	}
	copy(row, tmp)
}
