package geotiff

import (
	"bytes"
	"image"
	"image/jpeg"
)

// jpegBlock decodes JPEG-compressed block i of l (TIFF compression 7) into
// out, rows × bw pixels of spp samples. A block holds an abbreviated JPEG
// stream: the tables are in the JPEGTables tag, spliced in before the
// block's own markers (the tables' EOI and the block's SOI dropped).
// YCbCr is converted to RGB as libjpeg does by default (fancy
// upsampling of subsampled chroma, its integer colour conversion), so the
// samples are those GDAL reads.
func (r *ImageryReader) jpegBlock(l *layout, i, rows int, out []byte) error {
	raw, err := r.stored(l, i, len(out))
	if err != nil {
		return err
	}
	if raw == nil {
		clear(out)
		return nil
	}
	stream := raw
	if len(l.jpegTables) >= 4 && len(raw) >= 2 {
		t := l.jpegTables
		if !bytes.HasSuffix(t, []byte{0xFF, 0xD9}) || !bytes.HasPrefix(raw, []byte{0xFF, 0xD8}) {
			return errorf("block %d: the JPEGTables or the block is not a JPEG stream", i)
		}
		r.jpeg = append(append(r.jpeg[:0], t[:len(t)-2]...), raw[2:]...)
		stream = r.jpeg
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(stream))
	if err != nil {
		return errorf("block %d: %w", i, err)
	}
	if cfg.Width != l.bw || cfg.Height < rows || cfg.Height > l.bh {
		return errorf("block %d is a JPEG image of %dx%d pixels, want %d wide and %d to %d high", i, cfg.Width, cfg.Height, l.bw, rows, l.bh)
	}
	m, err := jpeg.Decode(bytes.NewReader(stream))
	if err != nil {
		return errorf("block %d: %w", i, err)
	}
	spp := l.spp
	switch p := m.(type) {
	case *image.Gray:
		if spp != 1 {
			return errorf("block %d is a gray JPEG image in a file of %d bands", i, spp)
		}
		for y := range rows {
			copy(out[y*l.bw:(y+1)*l.bw], p.Pix[y*p.Stride:])
		}
	case *image.YCbCr:
		if spp != 3 {
			return errorf("block %d is a colour JPEG image in a file of %d bands", i, spp)
		}
		r.ycc.toRGB(p, rows, out)
	case *image.RGBA:
		if spp != 3 {
			return errorf("block %d is a colour JPEG image in a file of %d bands", i, spp)
		}
		for y := range rows {
			for x := range l.bw {
				copy(out[(y*l.bw+x)*3:][:3], p.Pix[y*p.Stride+4*x:])
			}
		}
	default:
		return errorf("block %d is a JPEG image of an unsupported colour model (CMYK?)", i)
	}
	return nil
}

// yccBuffers holds the upsampled chroma rows of one block.
type yccBuffers struct {
	cb, cr []int32
}

// libjpeg's colour conversion constants (jdcolor.c): 16-bit fixed point.
const (
	yccScaleBits = 16
	yccHalf      = 1 << (yccScaleBits - 1)
)

func yccFix(x float64) int32 { return int32(x*(1<<yccScaleBits) + 0.5) }

// toRGB converts rows of a decoded YCbCr JPEG to chunky RGB in out, as
// libjpeg does: chroma upsampled by its "fancy" triangle filter (4:2:0
// and 4:2:2), then its integer YCbCr → RGB conversion.
func (b *yccBuffers) toRGB(p *image.YCbCr, rows int, out []byte) {
	w := p.Rect.Dx()
	n := w * rows
	if cap(b.cb) < n {
		b.cb, b.cr = make([]int32, n), make([]int32, n)
	}
	cb, cr := b.cb[:n], b.cr[:n]
	b.upsample(p, p.Cb, w, rows, cb)
	b.upsample(p, p.Cr, w, rows, cr)
	crR, cbB := yccFix(1.40200), yccFix(1.77200)
	crG, cbG := -yccFix(0.71414), -yccFix(0.34414)
	for y := range rows {
		yr := p.Y[y*p.YStride:]
		for x := range w {
			i := y*w + x
			yy := int32(yr[x])
			cbv, crv := cb[i]-128, cr[i]-128
			o := out[3*i:]
			o[0] = clampByte(yy + (crR*crv+yccHalf)>>yccScaleBits)
			o[1] = clampByte(yy + (cbG*cbv+crG*crv+yccHalf)>>yccScaleBits)
			o[2] = clampByte(yy + (cbB*cbv+yccHalf)>>yccScaleBits)
		}
	}
}

// upsample writes the chroma plane c of p at full resolution, w × rows
// values, with libjpeg's fancy upsampling (jdsample.c h2v2 and h2v1);
// other subsampling ratios replicate the nearest value.
func (b *yccBuffers) upsample(p *image.YCbCr, c []byte, w, rows int, dst []int32) {
	cw := (w + 1) / 2
	ch := (p.Rect.Dy() + 1) / 2
	switch p.SubsampleRatio {
	case image.YCbCrSubsampleRatio444:
		for y := range rows {
			for x := range w {
				dst[y*w+x] = int32(c[y*p.CStride+x])
			}
		}
	case image.YCbCrSubsampleRatio420:
		for y := range rows {
			cy := y / 2
			ny := cy - 1 // the upper output row of a pair looks up, the lower down
			if y%2 == 1 {
				ny = cy + 1
			}
			ny = min(max(ny, 0), ch-1)
			this, near := c[cy*p.CStride:], c[ny*p.CStride:]
			fancyRow(func(k int) int32 { return 3*int32(this[k]) + int32(near[k]) }, cw, w, 8, 7, 4, dst[y*w:])
		}
	case image.YCbCrSubsampleRatio422:
		for y := range rows {
			row := c[y*p.CStride:]
			fancyRow(func(k int) int32 { return int32(row[k]) }, cw, w, 1, 2, 2, dst[y*w:])
		}
	default:
		for y := range rows {
			for x := range w {
				dst[y*w+x] = int32(c[p.COffset(x, y)-p.COffset(0, 0)])
			}
		}
	}
}

// fancyRow upsamples one row of cw chroma column values (col(k), already
// weighted vertically for 4:2:0) to w outputs: each output is 3/4 its own
// column and 1/4 its nearer neighbour, with libjpeg's biases (even
// outputs round up by evenBias, odd ones by oddBias, both then shifted
// right by shift); the first and last outputs take their own column only.
func fancyRow(col func(k int) int32, cw, w int, evenBias, oddBias int32, shift uint, dst []int32) {
	put := func(i int, v int32) {
		if i < w {
			dst[i] = v
		}
	}
	if cw == 1 { // one column: replicated
		v := col(0)
		if shift == 4 {
			v = (v*4 + 8) >> 4
		}
		put(0, v)
		put(1, v)
		return
	}
	this, next := col(0), col(1)
	var last int32
	if shift == 4 { // h2v2: sums of 4 per column
		put(0, (this*4+8)>>4)
		put(1, (this*3+next+7)>>4)
	} else { // h2v1: the first output is the value itself
		put(0, this)
		put(1, (this*3+next+2)>>2)
	}
	last, this = this, next
	for k := 1; k < cw-1; k++ {
		next = col(k + 1)
		put(2*k, (this*3+last+evenBias)>>shift)
		put(2*k+1, (this*3+next+oddBias)>>shift)
		last, this = this, next
	}
	k := cw - 1
	put(2*k, (this*3+last+evenBias)>>shift)
	if shift == 4 {
		put(2*k+1, (this*4+7)>>4)
	} else {
		put(2*k+1, this)
	}
}

func clampByte(v int32) byte {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return byte(v)
}
