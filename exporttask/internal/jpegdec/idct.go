package jpegdec

// The "islow" inverse DCT as libjpeg computes it by default: the
// Loeffler–Ligtenberg–Moschytz factorisation with constants in 13-bit
// fixed point, a column pass keeping 2 extra fraction bits, and a row pass
// that removes them, the 13 constant bits and the factor 8 of the 2-D
// transform, rounding half up each time. The constants are
// round(c × 2^13) of the named cosine terms.
const (
	constBits = 13
	pass1Bits = 2

	fix0_298631336 = 2446
	fix0_390180644 = 3196
	fix0_541196100 = 4433
	fix0_765366865 = 6270
	fix0_899976223 = 7373
	fix1_175875602 = 9633
	fix1_501321110 = 12299
	fix1_847759065 = 15137
	fix1_961570560 = 16069
	fix2_053119869 = 16819
	fix2_562915447 = 20995
	fix3_072711026 = 25172
)

// clampSample turns a row-pass result (centred on 0) into a sample.
func clampSample(v int32) byte {
	v += 128
	if uint32(v) > 255 {
		if v < 0 {
			return 0
		}
		return 255
	}
	return byte(v)
}

// fillDC writes a block whose only coefficient is the DC term dc
// (dequantised): every sample is the same.
func fillDC(dc int32, dst []byte, stride int) {
	// The column pass gives dc << 2 in column 0, the row pass rounds
	// away 5 bits.
	s := clampSample((dc<<pass1Bits + 1<<(pass1Bits+2)) >> (pass1Bits + 3))
	for y := range 8 {
		row := dst[y*stride : y*stride+8]
		for x := range row {
			row[x] = s
		}
	}
}

// idct8 is the 1-D transform of one column or row in[0..7] (given by
// index i*step+off), shared by both passes. It returns the 8 outputs
// before descaling.
func idct8(i0, i1, i2, i3, i4, i5, i6, i7 int32) (o0, o1, o2, o3, o4, o5, o6, o7 int32) {
	// Even part: inputs 0, 2, 4, 6.
	z1 := (i2 + i6) * fix0_541196100
	t2 := z1 - i6*fix1_847759065
	t3 := z1 + i2*fix0_765366865
	t0 := (i0 + i4) << constBits
	t1 := (i0 - i4) << constBits
	e10, e13 := t0+t3, t0-t3
	e11, e12 := t1+t2, t1-t2

	// Odd part: inputs 7, 5, 3, 1.
	a, b, c, e := i7, i5, i3, i1
	y1, y2, y3, y4 := a+e, b+c, a+c, b+e
	y5 := (y3 + y4) * fix1_175875602
	a *= fix0_298631336
	b *= fix2_053119869
	c *= fix3_072711026
	e *= fix1_501321110
	y1 *= -fix0_899976223
	y2 *= -fix2_562915447
	y3 = y3*-fix1_961570560 + y5
	y4 = y4*-fix0_390180644 + y5
	a += y1 + y3
	b += y2 + y4
	c += y2 + y3
	e += y1 + y4

	return e10 + e, e11 + c, e12 + b, e13 + a, e13 - a, e12 - b, e11 - c, e10 - e
}

// idctIslow transforms the dequantised coefficients blk (natural order)
// into 8 × 8 samples at dst, rows stride apart.
func idctIslow(blk *[64]int32, dst []byte, stride int) {
	var ws [64]int32
	const r1 = 1 << (constBits - pass1Bits - 1)
	const s1 = constBits - pass1Bits
	for x := range 8 {
		if blk[8+x]|blk[16+x]|blk[24+x]|blk[32+x]|blk[40+x]|blk[48+x]|blk[56+x] == 0 {
			v := blk[x] << pass1Bits
			for y := range 8 {
				ws[y*8+x] = v
			}
			continue
		}
		o0, o1, o2, o3, o4, o5, o6, o7 := idct8(blk[x], blk[8+x], blk[16+x], blk[24+x], blk[32+x], blk[40+x], blk[48+x], blk[56+x])
		ws[x] = (o0 + r1) >> s1
		ws[8+x] = (o1 + r1) >> s1
		ws[16+x] = (o2 + r1) >> s1
		ws[24+x] = (o3 + r1) >> s1
		ws[32+x] = (o4 + r1) >> s1
		ws[40+x] = (o5 + r1) >> s1
		ws[48+x] = (o6 + r1) >> s1
		ws[56+x] = (o7 + r1) >> s1
	}
	const s2 = constBits + pass1Bits + 3
	const r2 = 1 << (s2 - 1)
	for y := range 8 {
		w := ws[y*8 : y*8+8 : y*8+8]
		row := dst[y*stride : y*stride+8 : y*stride+8]
		if w[1]|w[2]|w[3]|w[4]|w[5]|w[6]|w[7] == 0 {
			s := clampSample((w[0] + 1<<(pass1Bits+2)) >> (pass1Bits + 3))
			for x := range row {
				row[x] = s
			}
			continue
		}
		o0, o1, o2, o3, o4, o5, o6, o7 := idct8(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
		row[0] = clampSample((o0 + r2) >> s2)
		row[1] = clampSample((o1 + r2) >> s2)
		row[2] = clampSample((o2 + r2) >> s2)
		row[3] = clampSample((o3 + r2) >> s2)
		row[4] = clampSample((o4 + r2) >> s2)
		row[5] = clampSample((o5 + r2) >> s2)
		row[6] = clampSample((o6 + r2) >> s2)
		row[7] = clampSample((o7 + r2) >> s2)
	}
}
