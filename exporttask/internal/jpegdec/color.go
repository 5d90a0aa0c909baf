package jpegdec

// output upsamples and converts the decoded planes into d.pix.
func (d *Decoder) output(color Color) (Image, error) {
	w, h, nc := d.width, d.height, len(d.comps)
	n := w * h * nc
	if cap(d.pix) < n {
		d.pix = make([]byte, n)
	}
	pix := d.pix[:n]
	img := Image{Width: w, Height: h, Components: nc, Pix: pix}
	if nc == 1 {
		c := &d.comps[0]
		for y := range h {
			copy(pix[y*w:(y+1)*w], c.plane[y*c.bx*8:])
		}
		return img, nil
	}
	convert := true
	switch color {
	case ColorAsIs:
		convert = false
	case ColorAuto:
		switch {
		case d.jfif:
		case d.adobe:
			convert = d.adobeTransform != 0
		case d.comps[0].id == 'R' && d.comps[1].id == 'G' && d.comps[2].id == 'B':
			convert = false
		}
	}
	for i := range d.comps {
		c := &d.comps[i]
		fh, fv := d.hmax/c.h, d.vmax/c.v
		if !(fh == 1 && fv == 1 || fh == 2 && fv == 1 || fh == 2 && fv == 2) {
			return Image{}, errorf("component %d is subsampled %d×%d; only 1×1, 2×1 and 2×2 are supported", i, fh, fv)
		}
		if cap(d.rows[i]) < w+1 {
			d.rows[i] = make([]int32, w+1)
		}
	}
	if cap(d.colsums) < w {
		d.colsums = make([]int32, w)
	}
	for y := range h {
		var r [3][]int32
		for i := range d.comps {
			r[i] = d.rows[i][:w+1]
			d.upsampleRow(&d.comps[i], y, r[i])
		}
		o := pix[y*w*3 : (y+1)*w*3]
		if convert {
			yccToRGB(r[0][:w], r[1][:w], r[2][:w], o)
			continue
		}
		for x := range w {
			o[3*x], o[3*x+1], o[3*x+2] = byte(r[0][x]), byte(r[1][x]), byte(r[2][x])
		}
	}
	return img, nil
}

// upsampleRow writes row y of component c at the image's full width
// into out (len ≥ 2 × c.dw), as libjpeg upsamples by default: 2×1 and 2×2
// with its "fancy" triangle filter, a component of 2 samples or fewer
// across by replication.
func (d *Decoder) upsampleRow(c *component, y int, out []int32) {
	stride := c.bx * 8
	fh, fv := d.hmax/c.h, d.vmax/c.v
	cy := y / fv
	row := c.plane[cy*stride : cy*stride+c.dw]
	switch {
	case fh == 1:
		for x, v := range row {
			out[x] = int32(v)
		}
	case c.dw <= 2: // replicated
		for x, v := range row {
			out[2*x], out[2*x+1] = int32(v), int32(v)
		}
	case fv == 1:
		fancyH(row, out)
	default:
		// The upper output row of a pair leans on the chroma row above,
		// the lower on the one below; the image's first and last rows
		// lean on themselves.
		ny := cy - 1
		if y%2 == 1 {
			ny = cy + 1
		}
		ny = min(max(ny, 0), c.dh-1)
		near := c.plane[ny*stride : ny*stride+c.dw]
		cs := d.colsums[:c.dw]
		for x := range cs {
			cs[x] = 3*int32(row[x]) + int32(near[x])
		}
		fancyHV(cs, out)
	}
}

// fancyH doubles a row horizontally: each output is 3/4 of its own input
// and 1/4 of the neighbour on its side, rounding odd outputs up (+2) and
// even ones down (+1) before dividing by 4; the first and last outputs
// are their inputs.
func fancyH(in []byte, out []int32) {
	n := len(in)
	out[0] = int32(in[0])
	for x := range n - 1 {
		a, b := 3*int32(in[x]), 3*int32(in[x+1])
		out[2*x+1] = (a + int32(in[x+1]) + 2) >> 2
		out[2*x+2] = (b + int32(in[x]) + 1) >> 2
	}
	out[2*n-1] = int32(in[n-1])
}

// fancyHV doubles a row of column sums (3 × nearer row + farther row)
// horizontally: 3/4 of its own sum and 1/4 of the neighbour's, then /16,
// rounding with +8 for even outputs and +7 for odd ones; the first and
// last outputs take their own sum only.
func fancyHV(cs []int32, out []int32) {
	n := len(cs)
	out[0] = (4*cs[0] + 8) >> 4
	for x := range n - 1 {
		a, b := 3*cs[x], 3*cs[x+1]
		out[2*x+1] = (a + cs[x+1] + 7) >> 4
		out[2*x+2] = (b + cs[x] + 8) >> 4
	}
	out[2*n-1] = (4*cs[n-1] + 7) >> 4
}

// YCbCr → RGB as libjpeg converts: 16-bit fixed-point factors (the JFIF
// coefficients × 2^16, rounded), products rounded half up, except that
// green sums its two products before rounding.
const (
	yccBits = 16
	yccHalf = 1 << (yccBits - 1)
	crToR   = 91881  // 1.40200
	cbToB   = 116130 // 1.77200
	crToG   = -46802 // -0.71414
	cbToG   = -22554 // -0.34414
)

func clamp255(v int32) byte {
	if uint32(v) > 255 {
		if v < 0 {
			return 0
		}
		return 255
	}
	return byte(v)
}

func yccToRGB(yr, cbr, crr []int32, o []byte) {
	for x := range yr {
		y, cb, cr := yr[x], cbr[x]-128, crr[x]-128
		o[3*x] = clamp255(y + (crToR*cr+yccHalf)>>yccBits)
		o[3*x+1] = clamp255(y + (cbToG*cb+crToG*cr+yccHalf)>>yccBits)
		o[3*x+2] = clamp255(y + (cbToB*cb+yccHalf)>>yccBits)
	}
}
