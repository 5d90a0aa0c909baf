package cog

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultBlockSize is the tile width and height when Image.BlockSize is 0,
// as with GDAL's COG driver.
const DefaultBlockSize = 512

// Image describes a single-band, north-up grid in EPSG:4326.
type Image struct {
	Width, Height int // pixels, both positive
	// BitsPerSample is 8, 16, 32 or 64; with SampleFormat it gives the
	// sample type: Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32 or
	// Float64 (64 bits only as a float).
	BitsPerSample int
	// SampleFormat is TIFF's: 1 unsigned integer, 2 signed integer, 3
	// IEEE float.
	SampleFormat int
	// West and North are the top-left corner of the top-left pixel,
	// degrees.
	West, North float64
	// PixelWidth and PixelHeight are degrees per pixel, both positive.
	PixelWidth, PixelHeight float64
	// NoData is the GDAL_NODATA text, "" (the default) for none. It must
	// parse as a number ("nan" and "inf" included). For the float types it
	// is written as given (without surrounding spaces); for the integer
	// types Write stores what GDAL's GeoTIFF writer stores for a value the
	// type cannot hold: rounded to the nearest integer, halves up, clamped
	// to the type's range, 0 for NaN (so "-9999" on Byte becomes "0").
	NoData string
	// BlockSize is the tile width and height, a multiple of 16 from 16 to
	// 4096; 0 (the default) means DefaultBlockSize.
	BlockSize int
}

// Rows fills buf (Width*BitsPerSample/8 bytes, little-endian samples) with
// row y, 0 being the north edge; Write calls it for y = 0..Height-1 in
// order, once each. buf's content on entry is unspecified.
type Rows func(y int, buf []byte) error

func (img Image) kind() kind { return kindOf(img.BitsPerSample, img.SampleFormat) }

func (img Image) blockSize() int {
	if img.BlockSize == 0 {
		return DefaultBlockSize
	}
	return img.BlockSize
}

// noDataText is the GDAL_NODATA text Write writes, "" for none. For the
// integer types it is the value GDAL's GeoTIFF writer would store: rounded
// to the nearest integer (halves up), clamped to the type's range, 0 for
// NaN; for the float types it is NoData without surrounding spaces.
func (img Image) noDataText() string {
	text := strings.TrimSpace(img.NoData)
	k := img.kind()
	if text == "" || k.float() {
		return text
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return text
	}
	if math.IsNaN(v) {
		v = 0
	}
	lo, hi := k.bounds()
	v = math.Max(lo, math.Min(hi, math.Floor(v+0.5)))
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// noData returns whether img has a nodata value and that value as pixels
// are compared with it (float32 pixels with the value as a float32, as
// GDAL compares them).
func (img Image) noData() (bool, float64) {
	text := img.noDataText()
	if text == "" {
		return false, 0
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return false, 0
	}
	return true, img.kind().quantize(v)
}

// Validate reports the first problem with img, naming the field.
func (img Image) Validate() error {
	const maxSide = math.MaxInt32
	k := img.kind()
	switch {
	case img.Width <= 0 || img.Height <= 0 || img.Width > maxSide || img.Height > maxSide:
		return fmt.Errorf("cog: Width×Height %d×%d: each must be from 1 to %d", img.Width, img.Height, maxSide)
	case k == kindInvalid:
		return fmt.Errorf("cog: BitsPerSample %d with SampleFormat %d is not one of the supported sample types (8, 16 or 32 bits with format 1 or 2; 32 or 64 bits with format 3)", img.BitsPerSample, img.SampleFormat)
	case math.IsNaN(img.West) || math.IsInf(img.West, 0) || math.IsNaN(img.North) || math.IsInf(img.North, 0):
		return fmt.Errorf("cog: West %v, North %v: the corner must be finite", img.West, img.North)
	case !(img.PixelWidth > 0) || math.IsInf(img.PixelWidth, 0) || !(img.PixelHeight > 0) || math.IsInf(img.PixelHeight, 0):
		return fmt.Errorf("cog: PixelWidth %v, PixelHeight %v: both must be positive and finite", img.PixelWidth, img.PixelHeight)
	case img.BlockSize != 0 && (img.BlockSize < 16 || img.BlockSize > 4096 || img.BlockSize%16 != 0):
		return fmt.Errorf("cog: BlockSize %d: must be 0 or a multiple of 16 from 16 to 4096", img.BlockSize)
	}
	if img.NoData != "" {
		if _, err := strconv.ParseFloat(strings.TrimSpace(img.NoData), 64); err != nil {
			return fmt.Errorf("cog: NoData %q is not a number", img.NoData)
		}
	}
	return nil
}

// levelSize is the size of one resolution level.
type levelSize struct{ w, h int }

// levels returns the full-resolution size followed by the overview sizes:
// halved, rounding down but never below 1, until the level fits in one tile
// (GDAL's COG driver does the same).
func (img Image) levels() []levelSize {
	bs := img.blockSize()
	out := []levelSize{{img.Width, img.Height}}
	for k := 1; ; k++ {
		last := out[len(out)-1]
		if last.w <= bs && last.h <= bs {
			return out
		}
		out = append(out, levelSize{max(1, img.Width>>k), max(1, img.Height>>k)})
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// MaxSize returns an upper bound of the bytes Write produces for img (0
// when img is not valid): every tile stored as Deflate's worst case, in a
// BigTIFF. Real files of smooth data are much smaller.
func MaxSize(img Image) int64 {
	if img.Validate() != nil {
		return 0
	}
	bs := int64(img.blockSize())
	tileBytes := bs * bs * int64(img.BitsPerSample/8)
	worst := tileBytes + tileBytes/64 + 64 + 8 // deflate bound, leader, trailer
	f := format{big: true}
	head, _ := f.header()
	total := int64(len(head))
	for i, l := range img.levels() {
		n := int64(ceilDiv(l.w, int(bs))) * int64(ceilDiv(l.h, int(bs)))
		total += f.ifdSize(img.fields(f, i, make([]uint64, n), make([]uint64, n))) + n*worst
	}
	return total
}

// fields returns the IFD entries of level i (0 is full resolution), sorted
// by tag.
func (img Image) fields(f format, i int, offs, counts []uint64) []field {
	l := img.levels()[i]
	bs := uint32(img.blockSize())
	fs := []field{
		longs(tagImageWidth, uint32(l.w)),
		longs(tagImageLength, uint32(l.h)),
		shorts(tagBitsPerSample, uint16(img.BitsPerSample)),
		shorts(tagCompression, 8), // Deflate
		shorts(tagPhotometric, 1), // BlackIsZero
		shorts(tagSamplesPerPixel, 1),
		shorts(tagPlanarConfig, 1),
		shorts(tagPredictor, img.kind().predictor()),
		longs(tagTileWidth, bs),
		longs(tagTileLength, bs),
		offsets(tagTileOffsets, f.big, offs),
		offsets(tagTileByteCounts, f.big, counts),
		shorts(tagSampleFormat, uint16(img.SampleFormat)),
	}
	if i > 0 {
		fs = append(fs, longs(tagNewSubfileType, 1)) // reduced-resolution image
	} else {
		fs = append(fs,
			doubles(tagModelPixelScale, img.PixelWidth, img.PixelHeight, 0),
			doubles(tagModelTiepoint, 0, 0, 0, img.West, img.North, 0),
			// GeoKey directory version 1.1.0 with three keys:
			// GTModelType geographic, GTRasterType PixelIsArea,
			// GeographicType WGS 84.
			shorts(tagGeoKeyDirectory, 1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326),
		)
	}
	if text := img.noDataText(); text != "" {
		fs = append(fs, ascii(tagGDALNoData, text))
	}
	return sortFields(fs)
}
