package cog

import (
	"encoding/binary"
	"math"
)

// kind is one of the eight sample types Write accepts.
type kind int

const (
	kindInvalid kind = iota
	kindInt8
	kindUint8
	kindInt16
	kindUint16
	kindInt32
	kindUint32
	kindFloat32
	kindFloat64
)

func kindOf(bits, format int) kind {
	switch {
	case bits == 8 && format == 1:
		return kindUint8
	case bits == 8 && format == 2:
		return kindInt8
	case bits == 16 && format == 1:
		return kindUint16
	case bits == 16 && format == 2:
		return kindInt16
	case bits == 32 && format == 1:
		return kindUint32
	case bits == 32 && format == 2:
		return kindInt32
	case bits == 32 && format == 3:
		return kindFloat32
	case bits == 64 && format == 3:
		return kindFloat64
	}
	return kindInvalid
}

func (k kind) float() bool { return k == kindFloat32 || k == kindFloat64 }

// bounds are the smallest and largest values of an integer kind.
func (k kind) bounds() (float64, float64) {
	switch k {
	case kindInt8:
		return math.MinInt8, math.MaxInt8
	case kindUint8:
		return 0, math.MaxUint8
	case kindInt16:
		return math.MinInt16, math.MaxInt16
	case kindUint16:
		return 0, math.MaxUint16
	case kindInt32:
		return math.MinInt32, math.MaxInt32
	case kindUint32:
		return 0, math.MaxUint32
	}
	return math.Inf(-1), math.Inf(1)
}

// quantize returns v as the kind stores it: rounded half away from zero and
// clamped for the integer kinds, rounded to float32 for Float32.
func (k kind) quantize(v float64) float64 {
	switch k {
	case kindFloat64:
		return v
	case kindFloat32:
		return float64(float32(v))
	}
	if math.IsNaN(v) {
		return 0
	}
	lo, hi := k.bounds()
	return math.Max(lo, math.Min(hi, math.Round(v)))
}

// decode converts the little-endian samples in src to dst.
func (k kind) decode(src []byte, dst []float64) {
	switch k {
	case kindInt8:
		for i := range dst {
			dst[i] = float64(int8(src[i]))
		}
	case kindUint8:
		for i := range dst {
			dst[i] = float64(src[i])
		}
	case kindInt16:
		for i := range dst {
			dst[i] = float64(int16(binary.LittleEndian.Uint16(src[2*i:])))
		}
	case kindUint16:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint16(src[2*i:]))
		}
	case kindInt32:
		for i := range dst {
			dst[i] = float64(int32(binary.LittleEndian.Uint32(src[4*i:])))
		}
	case kindUint32:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint32(src[4*i:]))
		}
	case kindFloat32:
		for i := range dst {
			dst[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
		}
	case kindFloat64:
		for i := range dst {
			dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
		}
	}
}

// encode writes src to dst as little-endian samples; the values must
// already be quantized.
func (k kind) encode(src []float64, dst []byte) {
	switch k {
	case kindInt8:
		for i, v := range src {
			dst[i] = byte(int8(v))
		}
	case kindUint8:
		for i, v := range src {
			dst[i] = byte(v)
		}
	case kindInt16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], uint16(int16(v)))
		}
	case kindUint16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], uint16(v))
		}
	case kindInt32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(v)))
		}
	case kindUint32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(v))
		}
	case kindFloat32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(float32(v)))
		}
	case kindFloat64:
		for i, v := range src {
			binary.LittleEndian.PutUint64(dst[8*i:], math.Float64bits(v))
		}
	}
}

// replacement is the value an overview pixel gets when its average equals
// the nodata value nd, so that it does not turn into nodata; the rule is
// GDAL's (gcore/overview.cpp): the next integer up (down at the type's
// maximum), or for floats nd·(1+1e-7), the smallest normal float32 for 0.
func (k kind) replacement(nd float64) float64 {
	if k.float() {
		if nd == 0 {
			return math.SmallestNonzeroFloat32 * (1 << 23) // FLT_MIN, the smallest normal float32
		}
		return k.quantize(float64(float32(nd + 1e-7*nd)))
	}
	if _, hi := k.bounds(); nd == hi {
		return nd - 1
	}
	return nd + 1
}

// predict applies the TIFF predictor to one row of a tile in place: for
// integers (Predictor 2) each sample becomes its difference from the sample
// before it, modulo the sample size; for floats (Predictor 3, Adobe TIFF
// Technical Note 3) the bytes are regrouped by significance, most
// significant first, and each byte becomes its difference from the byte
// before it. tmp must be as long as row.
func (k kind) predict(row, tmp []byte) {
	switch k {
	case kindInt8, kindUint8:
		for i := len(row) - 1; i > 0; i-- {
			row[i] -= row[i-1]
		}
	case kindInt16, kindUint16:
		for i := len(row) - 2; i > 0; i -= 2 {
			binary.LittleEndian.PutUint16(row[i:], binary.LittleEndian.Uint16(row[i:])-binary.LittleEndian.Uint16(row[i-2:]))
		}
	case kindInt32, kindUint32:
		for i := len(row) - 4; i > 0; i -= 4 {
			binary.LittleEndian.PutUint32(row[i:], binary.LittleEndian.Uint32(row[i:])-binary.LittleEndian.Uint32(row[i-4:]))
		}
	case kindFloat32, kindFloat64:
		size := 4
		if k == kindFloat64 {
			size = 8
		}
		n := len(row) / size
		for i := range n {
			for b := range size {
				// Little-endian byte b goes to plane size-1-b; plane 0
				// holds the sign and the top of the exponent.
				tmp[(size-1-b)*n+i] = row[size*i+b]
			}
		}
		for i := len(tmp) - 1; i > 0; i-- {
			tmp[i] -= tmp[i-1]
		}
		copy(row, tmp)
	}
}

// predictor is the TIFF Predictor tag value for k.
func (k kind) predictor() uint16 {
	if k.float() {
		return 3
	}
	return 2
}
