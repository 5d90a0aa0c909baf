package geotiff

import (
	"bytes"
	"fmt"
	"io"

	"github.com/openapi-viewer/viewer/exporttask/internal/jpegdec"
)

// ImageryReader decodes blocks of an [Imagery] as RGBA, reusing its
// buffers. It is not safe for concurrent use: give each goroutine its
// own ([Imagery.NewReader]).
type ImageryReader struct {
	img     *Imagery
	raw     []byte // a stored block
	samples []byte // a decoded block, chunky
	plane   []byte // one band of a planar block
	mask    []byte // a decoded mask block
	jpeg    jpegdec.Decoder
	br      bytes.Reader
	zr      io.ReadCloser
	read    int64
}

// NewReader returns a reader of the image's blocks.
func (img *Imagery) NewReader() *ImageryReader { return &ImageryReader{img: img} }

// BytesRead returns the bytes read from the file so far.
func (r *ImageryReader) BytesRead() int64 { return r.read }

// Block decodes block (bx, by) of level lv into dst as non-premultiplied
// RGBA, 4 bytes a pixel, BlockWidth × BlockHeight pixels in rows: gray
// becomes equal red, green and blue; a palette index its colour; alpha is
// the alpha band, 0 where the mask says no data or the pixel holds the
// nodata value in every band, else 255. Rows past the image's end (a
// short last strip) are transparent. dst must hold BlockWidth ×
// BlockHeight × 4 bytes.
func (r *ImageryReader) Block(lv *Level, bx, by int, dst []byte) error {
	l := lv.lay
	if bx < 0 || by < 0 || bx >= l.across || by >= l.down {
		return errorf("block (%d, %d) is outside the %dx%d blocks of the %dx%d level", bx, by, l.across, l.down, l.width, l.height)
	}
	n := l.bw * l.bh * 4
	if len(dst) < n {
		return errorf("a block of %dx%d pixels needs %d bytes, the buffer holds %d", l.bw, l.bh, n, len(dst))
	}
	dst = dst[:n]
	rows := l.blockRows(by)
	samples, err := r.samplesOf(l, bx, by, rows)
	if err != nil {
		return fmt.Errorf("%w (level %dx%d, block %d, %d)", err, l.width, l.height, bx, by)
	}
	r.toRGBA(samples, rows*l.bw, l.spp, dst)
	clear(dst[rows*l.bw*4:])
	if lv.mask != nil {
		if err := r.applyMask(lv, bx, by, rows, dst); err != nil {
			return fmt.Errorf("%w (the mask of level %dx%d, block %d, %d)", err, l.width, l.height, bx, by)
		}
	}
	return nil
}

// samplesOf returns block (bx, by) of l as chunky samples, rows × bw
// pixels of spp bytes.
func (r *ImageryReader) samplesOf(l *layout, bx, by, rows int) ([]byte, error) {
	spp := l.spp
	n := rows * l.bw * spp
	if cap(r.samples) < n {
		r.samples = make([]byte, n)
	}
	out := r.samples[:n]
	i := by*l.across + bx
	switch {
	case l.compression == compressionJPEG:
		return out, r.jpegBlock(l, i, rows, out)
	case l.planar == 1 || spp == 1:
		if err := r.rawBlock(l, i, out); err != nil {
			return nil, err
		}
		if l.predictor == 2 {
			for y := range rows {
				unpredictHorizontal(out[y*l.bw*spp:(y+1)*l.bw*spp], 1, spp)
			}
		}
		return out, nil
	}
	pn := rows * l.bw
	if cap(r.plane) < pn {
		r.plane = make([]byte, pn)
	}
	plane := r.plane[:pn]
	for b := range spp {
		if err := r.rawBlock(l, b*l.across*l.down+i, plane); err != nil {
			return nil, fmt.Errorf("%w (band %d)", err, b+1)
		}
		if l.predictor == 2 {
			for y := range rows {
				unpredictHorizontal(plane[y*l.bw:(y+1)*l.bw], 1, 1)
			}
		}
		for p, v := range plane {
			out[p*spp+b] = v
		}
	}
	return out, nil
}

// stored reads stored block i of l into r.raw; an unwritten block (GDAL's
// sparse files) is nil.
func (r *ImageryReader) stored(l *layout, i, decoded int) ([]byte, error) {
	off, count := l.offsets[i], l.counts[i]
	if limit := uint64(2*decoded + 4096); count > limit {
		return nil, errorf("block %d is stored in %d bytes, more than %d for %d decoded bytes: the file is corrupt",
			i, count, limit, decoded)
	}
	if count == 0 {
		return nil, nil
	}
	if cap(r.raw) < int(count) {
		r.raw = make([]byte, count)
	}
	raw := r.raw[:count]
	if err := r.img.f.readAt(raw, off); err != nil {
		return nil, fmt.Errorf("%w (block %d)", err, i)
	}
	r.read += int64(count)
	return raw, nil
}

// rawBlock decodes block i of l (not JPEG) into exactly len(dst) bytes.
func (r *ImageryReader) rawBlock(l *layout, i int, dst []byte) error {
	raw, err := r.stored(l, i, len(dst))
	if err != nil {
		return err
	}
	if raw == nil {
		clear(dst)
		return nil
	}
	if err := decompress(l.compression, raw, dst, &r.br, &r.zr); err != nil {
		return errorf("block %d (%d bytes at offset %d): %w", i, len(raw), l.offsets[i], err)
	}
	return nil
}

// toRGBA converts n pixels of chunky samples (spp each) to RGBA.
func (r *ImageryReader) toRGBA(s []byte, n, spp int, dst []byte) {
	img := r.img
	nd := img.noData
	switch img.Kind {
	case "gray", "gray+alpha":
		inv := img.Levels[0].lay.photometric == photoWhiteIsZero
		for p := range n {
			v := s[p*spp]
			a := byte(255)
			if img.alphaBand >= 0 {
				a = s[p*spp+img.alphaBand]
			} else if int(v) == nd {
				a = 0
			}
			if inv {
				v = 255 - v
			}
			dst[4*p], dst[4*p+1], dst[4*p+2], dst[4*p+3] = v, v, v, a
		}
	case "palette":
		for p := range n {
			v := s[p]
			c := img.palette[v]
			if int(v) == nd {
				c[3] = 0
			}
			copy(dst[4*p:4*p+4], c[:])
		}
	default: // rgb, rgba
		for p := range n {
			px := s[p*spp:]
			a := byte(255)
			if img.alphaBand >= 0 {
				a = px[img.alphaBand]
			} else if nd >= 0 && int(px[0]) == nd && int(px[1]) == nd && int(px[2]) == nd {
				a = 0
			}
			dst[4*p], dst[4*p+1], dst[4*p+2], dst[4*p+3] = px[0], px[1], px[2], a
		}
	}
}

// applyMask clears the alpha of the pixels the level's mask says hold no
// data.
func (r *ImageryReader) applyMask(lv *Level, bx, by, rows int, dst []byte) error {
	m := lv.mask
	if m.bw != lv.lay.bw || m.bh != lv.lay.bh {
		return errorf("the mask's blocks are %dx%d pixels, the image's %dx%d", m.bw, m.bh, lv.lay.bw, lv.lay.bh)
	}
	rowBytes := (m.bw + 7) / 8
	n := rows * rowBytes
	if cap(r.mask) < n {
		r.mask = make([]byte, n)
	}
	bits := r.mask[:n]
	if err := r.rawBlock(m, by*m.across+bx, bits); err != nil {
		return err
	}
	if m.predictor == 2 {
		for y := range rows {
			unpredictHorizontal(bits[y*rowBytes:(y+1)*rowBytes], 1, 1)
		}
	}
	for y := range rows {
		row := bits[y*rowBytes:]
		for x := range m.bw {
			if row[x>>3]&(0x80>>(x&7)) == 0 {
				dst[(y*m.bw+x)*4+3] = 0
			}
		}
	}
	return nil
}

// Sparse reports whether block (bx, by) of lv is unwritten in every band
// and in its mask (GDAL leaves blocks of nothing but nodata out of sparse
// files): all its pixels are then [ImageryReader.SparseColor].
func (lv *Level) Sparse(bx, by int) bool {
	l := lv.lay
	if bx < 0 || by < 0 || bx >= l.across || by >= l.down {
		return false
	}
	i := by*l.across + bx
	planes := 1
	if l.planar == 2 {
		planes = l.spp
	}
	for p := range planes {
		if l.counts[p*l.across*l.down+i] != 0 {
			return false
		}
	}
	if m := lv.mask; m != nil && m.bw == l.bw && m.bh == l.bh && m.counts[i] != 0 {
		return false
	}
	return true
}

// SparseColor returns the RGBA of every pixel of a sparse block of lv:
// zero samples as [ImageryReader.Block] converts them, clear when the
// level has a mask (whose unwritten blocks are zero: no data).
func (r *ImageryReader) SparseColor(lv *Level) [4]byte {
	var s [4]byte
	var c [4]byte
	r.toRGBA(s[:lv.lay.spp], 1, lv.lay.spp, c[:])
	if lv.mask != nil {
		c[3] = 0
	}
	return c
}
