package dem

import (
	"encoding/binary"
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// sampleCodec converts rows of one sample type between their little-endian
// bytes and float64, nodata as NaN.
type sampleCodec struct {
	typ   geotiff.SampleType
	size  int
	valid func(b []byte, i int) bool // the source's nodata rule (geotiff.File.Valid)
	lo    float64                    // the type's range, for clamping
	hi    float64
	float bool
}

func newSampleCodec(typ geotiff.SampleType, size int, valid func(b []byte, i int) bool) sampleCodec {
	c := sampleCodec{typ: typ, size: size, valid: valid, lo: math.Inf(-1), hi: math.Inf(1)}
	switch typ {
	case geotiff.Int8:
		c.lo, c.hi = math.MinInt8, math.MaxInt8
	case geotiff.UInt8:
		c.lo, c.hi = 0, math.MaxUint8
	case geotiff.Int16:
		c.lo, c.hi = math.MinInt16, math.MaxInt16
	case geotiff.UInt16:
		c.lo, c.hi = 0, math.MaxUint16
	case geotiff.Int32:
		c.lo, c.hi = math.MinInt32, math.MaxInt32
	case geotiff.UInt32:
		c.lo, c.hi = 0, math.MaxUint32
	default:
		c.float = true
	}
	return c
}

// decode converts the n samples of src into dst, NaN where the source has
// no data.
func (c sampleCodec) decode(src []byte, dst []float64) {
	switch c.typ {
	case geotiff.Int16:
		for i := range dst {
			dst[i] = float64(int16(binary.LittleEndian.Uint16(src[2*i:])))
		}
	case geotiff.UInt16:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint16(src[2*i:]))
		}
	case geotiff.Float32:
		for i := range dst {
			dst[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
		}
	case geotiff.Int8:
		for i := range dst {
			dst[i] = float64(int8(src[i]))
		}
	case geotiff.UInt8:
		for i := range dst {
			dst[i] = float64(src[i])
		}
	case geotiff.Int32:
		for i := range dst {
			dst[i] = float64(int32(binary.LittleEndian.Uint32(src[4*i:])))
		}
	case geotiff.UInt32:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint32(src[4*i:]))
		}
	case geotiff.Float64:
		for i := range dst {
			dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
		}
	}
	for i := range dst {
		if !c.valid(src, i) {
			dst[i] = math.NaN()
		}
	}
}

// put writes v as sample i of dst: for the integer types rounded as GDAL's
// warper rounds (floor(v+0.5)) and clamped to the type's range; for the
// floating-point types as it is (Float32 rounded to float32).
func (c sampleCodec) put(dst []byte, i int, v float64) {
	if !c.float {
		v = math.Max(c.lo, math.Min(c.hi, math.Floor(v+0.5)))
	}
	switch c.typ {
	case geotiff.Int16:
		binary.LittleEndian.PutUint16(dst[2*i:], uint16(int16(v)))
	case geotiff.UInt16:
		binary.LittleEndian.PutUint16(dst[2*i:], uint16(v))
	case geotiff.Float32:
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(float32(v)))
	case geotiff.Int8:
		dst[i] = byte(int8(v))
	case geotiff.UInt8:
		dst[i] = byte(v)
	case geotiff.Int32:
		binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(v)))
	case geotiff.UInt32:
		binary.LittleEndian.PutUint32(dst[4*i:], uint32(v))
	case geotiff.Float64:
		binary.LittleEndian.PutUint64(dst[8*i:], math.Float64bits(v))
	}
}
