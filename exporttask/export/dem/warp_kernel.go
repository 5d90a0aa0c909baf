package dem

import "math"

// Resampling is how a warped export computes a pixel from the source pixels
// around the point its centre falls on.
type Resampling string

// The resampling methods of the "resampling" task parameter.
const (
	// Bilinear interpolates between the source pixels around the point,
	// as `gdalwarp -r bilinear` does; the default.
	Bilinear Resampling = "bilinear"
	// Nearest takes the source pixel the point falls in, as `gdalwarp -r
	// near` does.
	Nearest Resampling = "nearest"
)

// gdalResampling is the name `gdalwarp -r` gives r.
func (r Resampling) gdalResampling() string {
	if r == Nearest {
		return "near"
	}
	return string(r)
}

// kernel samples a band of source pixels at a point given in the source's
// pixel coordinates (0,0 the top-left corner of the band), the rules of
// GDAL's warp kernel (alg/gdalwarpkernel.cpp, GDAL 3.6). The band holds
// the rows [row0, row0+len(rows)) and columns [col0, col0+w) of a source
// of srcW×srcH pixels, NaN where it has no data.
type kernel struct {
	method Resampling
	srcW   int
	srcH   int
	// xScale and yScale are the output pixels per source pixel along each
	// axis, as GDAL's warper computes them; with either below 0.95,
	// bilinear widens its tent to 1/scale source pixels along that axis
	// (GWKResample) instead of taking the 2×2 neighbourhood
	// (GWKBilinearResample4Sample).
	xScale, yScale float64
	four           bool
	xRadius        int
	yRadius        int
}

// maxRadius bounds the tent's reach in source pixels either side: GDAL's
// grows without bound as the scale falls (a scale below 1/31, an output 31
// times coarser than its source along an axis, is not met on the grid
// gdalwarp suggests); here the weights beyond it are left out.
const maxRadius = 31

// newKernel returns the kernel of method for a source of srcW×srcH pixels
// and GDAL's scales.
func newKernel(method Resampling, srcW, srcH int, xScale, yScale float64) kernel {
	k := kernel{method: method, srcW: srcW, srcH: srcH, xScale: xScale, yScale: yScale, xRadius: 1, yRadius: 1}
	k.four = xScale >= 0.95 && yScale >= 0.95
	if xScale < 1 {
		k.xRadius = min(maxRadius, int(math.Ceil(1/xScale)))
	}
	if yScale < 1 {
		k.yRadius = min(maxRadius, int(math.Ceil(1/yScale)))
	}
	if method == Nearest {
		k.xRadius, k.yRadius = 0, 0
	}
	return k
}

// reach is how many source pixels beyond the one a point falls in the
// kernel reads, along x and y.
func (k kernel) reach() (int, int) { return k.xRadius + 1, k.yRadius + 1 }

// band is the source rows a kernel reads: row r of the source, columns
// [col0, col0+width), is at(r)[c-col0]; at returns nil for a row it does
// not hold.
type band struct {
	col0  int
	width int
	at    func(r int) []float64
}

// value returns the source pixel (c, r), NaN outside the source or where it
// has no data.
func (b band) value(c, r int) float64 {
	row := b.at(r)
	if row == nil || c < b.col0 || c >= b.col0+b.width {
		return math.NaN()
	}
	return row[c-b.col0]
}

// inside reports whether the point (u, v) falls on the source: GDAL warps
// only the output pixels whose centre does.
func (k kernel) inside(u, v float64) bool {
	return u >= 0 && v >= 0 && math.Floor(u+1e-10) < float64(k.srcW) && math.Floor(v+1e-10) < float64(k.srcH)
}

// sample returns the value at (u, v), which must be inside, and false when
// there is none: when the source pixel the point falls in has no data (GDAL
// skips the output pixel then, whatever its resampling), or when the
// resampling finds none.
func (k kernel) sample(b band, u, v float64) (float64, bool) {
	// The pixel the point falls in must have data, whatever the method.
	x := b.value(int(math.Floor(u+1e-10)), int(math.Floor(v+1e-10)))
	switch {
	case x != x:
		return 0, false
	case k.method == Nearest:
		return x, true
	case k.four:
		return k.bilinear4(b, u, v)
	}
	return k.tent(b, u, v)
}

// bilinear4 is GDAL's GWKBilinearResample4Sample: the 2×2 source pixels
// whose centres surround the point, weighted by their distance to it; the
// pixels outside the source or without data are left out and the weights
// of the others scaled to sum to 1; no value when they sum to less than
// 1e-5.
func (k kernel) bilinear4(b band, u, v float64) (float64, bool) {
	ix, iy := math.Floor(u-0.5), math.Floor(v-0.5)
	rx, ry := 1.5-(u-ix), 1.5-(v-iy)
	if ix == -1 {
		ix, rx = 0, 1
	}
	if iy == -1 {
		iy, ry = 0, 1
	}
	c, r := int(ix), int(iy)
	var acc, div float64
	add := func(c, r int, w float64) {
		if c < 0 || c >= k.srcW || r < 0 || r >= k.srcH {
			return
		}
		if x := b.value(c, r); x == x {
			acc += x * w
			div += w
		}
	}
	add(c, r, rx*ry)
	add(c+1, r, (1-rx)*ry)
	add(c, r+1, rx*(1-ry))
	add(c+1, r+1, (1-rx)*(1-ry))
	switch {
	case div < 0.00001:
		return 0, false
	case div == 1:
		return acc, true
	}
	return acc / div, true
}

// tentWeight is GDAL's bilinear filter, max(0, 1-|x|).
func tentWeight(x float64) float64 {
	if a := math.Abs(x); a <= 1 {
		return 1 - a
	}
	return 0
}

// tent is GDAL's GWKResample with the bilinear filter, used when a scale
// is below 0.95: along an axis whose scale s is below 1 the tent reaches
// ceil(1/s) pixels either side and a pixel's weight is the filter at its
// distance times s; pixels outside the source or without data are left
// out and the sum divided by the weights of those kept (unless they sum to
// within 1e-5 of 1); no value when they sum to less than 1e-6.
func (k kernel) tent(b band, u, v float64) (float64, bool) {
	ix, iy := math.Floor(u-0.5), math.Floor(v-0.5)
	dx, dy := u-0.5-ix, v-0.5-iy
	c, r := int(ix), int(iy)
	jMin, jMax := -k.yRadius, k.yRadius
	if r+jMin < 0 {
		jMin = -r
	}
	if r+jMax >= k.srcH {
		jMax = k.srcH - r - 1
	}
	iMin, iMax := -k.xRadius, k.xRadius
	if c+iMin < 0 {
		iMin = -c
	}
	if c+iMax >= k.srcW {
		iMax = k.srcW - c - 1
	}
	var wx [2*maxRadius + 1]float64
	for i := iMin; i <= iMax; i++ {
		if k.xScale < 1 {
			wx[i-iMin] = tentWeight((float64(i) - dx) * k.xScale)
		} else {
			wx[i-iMin] = tentWeight(float64(i) - dx)
		}
	}
	var acc, weight float64
	for j := jMin; j <= jMax; j++ {
		row := b.at(r + j)
		if row == nil {
			continue
		}
		var wy float64
		if k.yScale < 1 {
			wy = tentWeight((float64(j) - dy) * k.yScale)
		} else {
			wy = tentWeight(float64(j) - dy)
		}
		var accRow, wRow float64
		for i := iMin; i <= iMax; i++ {
			cc := c + i - b.col0
			if cc < 0 || cc >= b.width {
				continue
			}
			if x := row[cc]; x == x {
				accRow += x * wx[i-iMin]
				wRow += wx[i-iMin]
			}
		}
		acc += accRow * wy
		weight += wRow * wy
	}
	switch {
	case weight < 0.000001:
		return 0, false
	case weight < 0.99999 || weight > 1.00001:
		return acc / weight, true
	}
	return acc, true
}
