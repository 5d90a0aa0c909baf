package geom

import "math"

// boxPairs calls f(a, b), a < b, once for each pair of the n boxes that
// overlap (share a point), box(i) giving box i as minX, minY, maxX, maxY;
// it stops early when f returns false. It files the boxes in a grid whose
// cells are about as large as a typical box, and compares only boxes that
// share a cell, so that n small boxes spread over a region (the holes of a
// region of interest, their edges) cost about n comparisons, whatever
// their layout. Each comparison, and each filing of a box in a cell, is
// taken from budget; boxPairs returns false, having stopped, when the
// budget runs out.
func boxPairs(n int, box func(i int) (minX, minY, maxX, maxY float64), budget *int, f func(a, b int) bool) bool {
	if n < 2 {
		return true
	}
	type rect struct{ minX, minY, maxX, maxY float64 }
	boxes := make([]rect, n)
	if n <= 32 { // few boxes (a small polygon): compare them all
		if *budget -= n * (n - 1) / 2; *budget < 0 {
			return false
		}
		for i := range boxes {
			b := &boxes[i]
			b.minX, b.minY, b.maxX, b.maxY = box(i)
		}
		for a, ba := range boxes {
			for b := a + 1; b < n; b++ {
				bb := boxes[b]
				if ba.maxX < bb.minX || bb.maxX < ba.minX || ba.maxY < bb.minY || bb.maxY < ba.minY {
					continue
				}
				if !f(a, b) {
					return true
				}
			}
		}
		return true
	}
	all := rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	var widths, heights sizeHistogram
	for i := range boxes {
		b := &boxes[i]
		b.minX, b.minY, b.maxX, b.maxY = box(i)
		all.minX, all.minY = math.Min(all.minX, b.minX), math.Min(all.minY, b.minY)
		all.maxX, all.maxY = math.Max(all.maxX, b.maxX), math.Max(all.maxY, b.maxY)
		widths.add(b.maxX - b.minX)
		heights.add(b.maxY - b.minY)
	}
	// Cells one to two times the median box's size, at most 2n of them: a
	// box much larger than most is filed in many cells, and its pairs
	// counted in each, which makes such regions costly to the budget.
	nx := cellCount(all.maxX-all.minX, widths.median(), n)
	ny := cellCount(all.maxY-all.minY, heights.median(), n)
	if cells := float64(nx) * float64(ny); cells > 2*float64(n) {
		s := math.Sqrt(2 * float64(n) / cells)
		nx, ny = max(int(float64(nx)*s), 1), max(int(float64(ny)*s), 1)
	}
	cw, ch := (all.maxX-all.minX)/float64(nx), (all.maxY-all.minY)/float64(ny)
	cell := func(v, v0, size float64, n int) int {
		if !(size > 0) {
			return 0
		}
		return min(max(int((v-v0)/size), 0), n-1)
	}
	col := func(x float64) int { return cell(x, all.minX, cw, nx) }
	row := func(y float64) int { return cell(y, all.minY, ch, ny) }
	// File the boxes, cell by cell (counting first, then placing).
	start := make([]int32, nx*ny+1)
	for _, b := range boxes {
		cols, rows := col(b.maxX)-col(b.minX)+1, row(b.maxY)-row(b.minY)+1
		if *budget -= cols * rows; *budget < 0 {
			return false
		}
		for r := row(b.minY); r <= row(b.maxY); r++ {
			for c := col(b.minX); c <= col(b.maxX); c++ {
				start[r*nx+c+1]++
			}
		}
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	items := make([]int32, start[len(start)-1])
	next := append([]int32(nil), start[:len(start)-1]...)
	for i, b := range boxes {
		for r := row(b.minY); r <= row(b.maxY); r++ {
			for c := col(b.minX); c <= col(b.maxX); c++ {
				items[next[r*nx+c]] = int32(i)
				next[r*nx+c]++
			}
		}
	}
	// Compare the boxes of each cell; a pair that shares several cells is
	// compared in the one holding the lower left corner of their overlap.
	for r := range ny {
		for c := range nx {
			in := items[start[r*nx+c]:start[r*nx+c+1]]
			if k := len(in); k > 1 {
				if *budget -= k * (k - 1) / 2; *budget < 0 {
					return false
				}
			}
			for x, a := range in {
				ba := boxes[a]
				for _, b := range in[x+1:] {
					bb := boxes[b]
					if ba.maxX < bb.minX || bb.maxX < ba.minX || ba.maxY < bb.minY || bb.maxY < ba.minY {
						continue
					}
					if col(math.Max(ba.minX, bb.minX)) != c || row(math.Max(ba.minY, bb.minY)) != r {
						continue
					}
					if !f(int(a), int(b)) {
						return true
					}
				}
			}
		}
	}
	return true
}

// cellCount is the number of cells of about size across extent, at least
// 1 and at most n.
func cellCount(extent, size float64, n int) int {
	if !(extent > 0) {
		return 1
	}
	if !(size > 0) {
		return n
	}
	return int(min(max(math.Ceil(extent/size), 1), float64(n)))
}

// sizeHistogram counts sizes by power of two, to find a median within a
// factor of two in one pass.
type sizeHistogram struct {
	zero  int
	count [2100]int32 // by binary exponent, offset by 1075
}

func (h *sizeHistogram) add(v float64) {
	if !(v > 0) || math.IsInf(v, 1) {
		h.zero++
		return
	}
	_, e := math.Frexp(v)
	h.count[e+1075]++
}

// median returns the power of two just above the median of the sizes
// greater than zero; 0 when there are none.
func (h *sizeHistogram) median() float64 {
	total := 0
	for _, c := range h.count {
		total += int(c)
	}
	seen := 0
	for i, c := range h.count {
		if seen += int(c); c > 0 && 2*seen >= total {
			return math.Ldexp(1, i-1075)
		}
	}
	return 0
}
