package cog

import "math"

// span is the source range [a, b) one overview pixel averages along one
// axis, with the weights of its first (wa) and last (wb) source pixel; the
// pixels between weigh 1.
type span struct {
	a, b   int
	wa, wb float64
}

// spans returns, for each of the dst pixels of an overview axis made from
// src pixels, its source span. The rule is GDAL's AVERAGE resampling
// (gcore/overview.cpp): pixel i covers [i·r, (i+1)·r) with r = src/dst, the
// end pixels weighted by how much of them falls inside. With r = 2 every
// span is two whole pixels; when src is odd (GDAL halves sizes rounding
// down) r is a little over 2 and some spans take a sliver of a third pixel.
func spans(src, dst int) []span {
	r := float64(src) / float64(dst)
	out := make([]span, dst)
	for i := range out {
		off := float64(i) * r
		a := int(off + 1e-8)
		off2 := float64(i+1) * r
		b := int(math.Ceil(off2 - 1e-8))
		if b == a {
			b++
		}
		b = min(b, src)
		s := span{a: a, b: b, wa: 1, wb: 1 - (float64(b) - off2)}
		if b != a+1 {
			s.wa = 1 - (off - float64(a))
		}
		out[i] = s
	}
	return out
}

// weight is the weight of source pixel i in s.
func (s span) weight(i int) float64 {
	switch {
	case i == s.a:
		return s.wa
	case i == s.b-1:
		return s.wb
	}
	return 1
}

// reducer makes the rows of one overview level from the rows of the level
// above, holding only the few source rows the next output row needs.
type reducer struct {
	kind      kind
	hasNoData bool
	noData    float64 // as the sample type stores it
	xs, ys    []span
	next      int         // the next output row
	first     int         // the source row held in rows[0]
	rows      [][]float64 // source rows first, first+1, ...
	spare     [][]float64
	out       []float64
}

func newReducer(k kind, hasNoData bool, noData float64, srcW, srcH, dstW, dstH int) *reducer {
	return &reducer{
		kind: k, hasNoData: hasNoData, noData: noData,
		xs: spans(srcW, dstW), ys: spans(srcH, dstH),
		out: make([]float64, dstW),
	}
}

func (r *reducer) valid(v float64) bool {
	if !r.hasNoData {
		return true
	}
	if math.IsNaN(r.noData) {
		return !math.IsNaN(v)
	}
	return v != r.noData
}

// push takes source row y (the rows come in order) and calls emit for every
// output row it completes; emit's row is valid until it returns.
func (r *reducer) push(y int, row []float64, emit func(y int, row []float64) error) error {
	if len(r.rows) == 0 {
		r.first = y
	}
	var buf []float64
	if n := len(r.spare); n > 0 {
		buf, r.spare = r.spare[n-1], r.spare[:n-1]
	} else {
		buf = make([]float64, len(row))
	}
	copy(buf, row)
	r.rows = append(r.rows, buf)
	for r.next < len(r.ys) && r.ys[r.next].b-1 <= y {
		r.reduce(r.ys[r.next])
		if err := emit(r.next, r.out); err != nil {
			return err
		}
		r.next++
		// Drop the rows no later output row reads.
		keep := y + 1
		if r.next < len(r.ys) {
			keep = r.ys[r.next].a
		}
		drop := min(max(keep-r.first, 0), len(r.rows))
		r.spare = append(r.spare, r.rows[:drop]...)
		r.rows = r.rows[:copy(r.rows, r.rows[drop:])]
		r.first += drop
	}
	return nil
}

// exact reports whether s is two whole pixels, the span of every
// overview pixel when the side halves exactly.
func (s span) exact() bool { return s.b == s.a+2 && s.wa == 1 && s.wb == 1 }

// reduce computes the output row of source span sy into r.out.
func (r *reducer) reduce(sy span) {
	exactY := sy.exact()
	var row0, row1 []float64
	if exactY {
		row0, row1 = r.rows[sy.a-r.first], r.rows[sy.a+1-r.first]
	}
	for x, sx := range r.xs {
		if exactY && sx.exact() {
			r.out[x] = r.mean4(row0[sx.a], row0[sx.a+1], row1[sx.a], row1[sx.a+1])
			continue
		}
		var total, weight float64
		n := 0
		for y := sy.a; y < sy.b; y++ {
			row := r.rows[y-r.first]
			var line, lineWeight float64
			for i := sx.a; i < sx.b; i++ {
				v := row[i]
				if !r.valid(v) {
					continue
				}
				w := sx.weight(i)
				line += v * w
				lineWeight += w
				n++
			}
			wy := sy.weight(y)
			total += line * wy
			weight += lineWeight * wy
		}
		if n == 0 {
			r.out[x] = r.noData
			continue
		}
		r.out[x] = r.finish(total / weight)
	}
}

// mean4 is what reduce computes for two whole pixels of two whole rows,
// a above b, in the same order of float64 additions, without the weights.
func (r *reducer) mean4(a0, a1, b0, b1 float64) float64 {
	var line0, line1, w0, w1 float64
	if r.valid(a0) {
		line0 += a0
		w0++
	}
	if r.valid(a1) {
		line0 += a1
		w0++
	}
	if r.valid(b0) {
		line1 += b0
		w1++
	}
	if r.valid(b1) {
		line1 += b1
		w1++
	}
	if w0+w1 == 0 {
		return r.noData
	}
	var total, weight float64
	total += line0
	total += line1
	weight += w0
	weight += w1
	return r.finish(total / weight)
}

// finish turns a mean into an overview pixel: quantized, and moved off the
// nodata value.
func (r *reducer) finish(m float64) float64 {
	v := r.kind.quantize(r.kind.viaFloat32(m))
	if r.hasNoData && v == r.noData {
		v = r.kind.replacement(r.noData)
	}
	return v
}

// viaFloat32 rounds an overview mean of the signed and 32-bit integer kinds
// to float32 when it is below 2^24 in magnitude. GDAL 3.6 computes those
// means in float32 (its working type for every type but Byte and UInt16),
// which decides a few means lying within float32's precision of a
// half-integer the other way; below 2^24 float32 loses nothing else, so
// doing the same costs no accuracy and gives GDAL's pixels. Larger means,
// and the float kinds, keep float64's precision.
func (k kind) viaFloat32(m float64) float64 {
	switch k {
	case kindInt8, kindInt16, kindInt32, kindUint32:
		if math.Abs(m) < 1<<24 {
			return float64(float32(m))
		}
	}
	return m
}
