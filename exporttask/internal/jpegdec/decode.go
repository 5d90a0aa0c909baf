package jpegdec

import (
	"errors"
	"fmt"
)

// Color says how a 3-component image's samples become output samples.
type Color int

const (
	// ColorAuto decides as libjpeg does: YCbCr (converted to RGB) unless
	// an Adobe marker says RGB (transform 0) or, without JFIF or Adobe
	// markers, the components are named 'R', 'G' and 'B'.
	ColorAuto Color = iota
	// ColorYCbCr converts YCbCr to RGB whatever the markers say (a TIFF
	// of photometric interpretation YCbCr, as libtiff decodes it).
	ColorYCbCr
	// ColorAsIs returns the components as they are coded (a TIFF of
	// photometric interpretation RGB).
	ColorAsIs
)

// Options bounds and configures one decode.
type Options struct {
	// Tables is an abbreviated stream that only defines tables (SOI,
	// DQT/DHT/DRI segments, EOI), read before the image's own stream, as
	// the TIFF JPEGTables tag holds them. Default: none.
	Tables []byte
	// MaxWidth and MaxHeight bound the frame's size; a larger frame is an
	// error before anything is allocated for it. Both must be positive.
	MaxWidth, MaxHeight int
	// Color: how 3 components become RGB. Default: ColorAuto.
	Color Color
}

// Image is a decoded image. Pix is owned by the [Decoder] and valid until
// its next Decode.
type Image struct {
	Width, Height int
	// Components is 1 (gray) or 3 (RGB).
	Components int
	// Pix holds Height rows of Width × Components samples, chunky.
	Pix []byte
}

// ErrFormat is wrapped by every error about the stream's content.
var ErrFormat = errors.New("jpegdec: invalid or unsupported JPEG stream")

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

// Markers (T.81 table B.1).
const (
	mSOF0 = 0xC0
	mSOF1 = 0xC1
	mDHT  = 0xC4
	mRST0 = 0xD0
	mRST7 = 0xD7
	mSOI  = 0xD8
	mEOI  = 0xD9
	mSOS  = 0xDA
	mDQT  = 0xDB
	mDNL  = 0xDC
	mDRI  = 0xDD
	mAPP0 = 0xE0
	mAPPE = 0xEE
)

// component is one component of the frame and its decoded plane.
type component struct {
	id, h, v, tq int
	// bx, by: blocks across and down the plane (whole MCUs).
	bx, by int
	// dw, dh: the component's own size (ceil of the image's × h/hmax).
	dw, dh int
	plane  []byte // bx*8 × by*8 samples
	done   bool
}

// Decoder decodes JPEG streams, keeping its buffers between calls. A
// Decoder is not safe for concurrent use; its zero value is ready.
type Decoder struct {
	quant    [4][64]int32 // natural order
	quantSet [4]bool
	huff     [2][4]huffTable // [0] DC, [1] AC
	huffSet  [2][4]bool
	restart  int

	jfif, adobe    bool
	adobeTransform int

	frame         bool
	width, height int
	comps         []component
	compsBuf      [3]component
	hmax, vmax    int
	mcusX, mcusY  int

	planes  []byte
	pix     []byte
	rows    [3][]int32 // an upsampled row per component
	colsums []int32
	br      bitReader
	blk     [64]int32
}

// Decode decodes stream (and the tables in o.Tables first).
func (d *Decoder) Decode(stream []byte, o Options) (Image, error) {
	if o.MaxWidth <= 0 || o.MaxHeight <= 0 {
		return Image{}, fmt.Errorf("jpegdec: MaxWidth and MaxHeight must be positive, got %d and %d", o.MaxWidth, o.MaxHeight)
	}
	d.reset()
	if len(o.Tables) > 0 {
		if err := d.parse(o.Tables, o, true); err != nil {
			return Image{}, fmt.Errorf("%w (in the tables)", err)
		}
	}
	if err := d.parse(stream, o, false); err != nil {
		return Image{}, err
	}
	return d.output(o.Color)
}

func (d *Decoder) reset() {
	d.quantSet = [4]bool{}
	d.huffSet = [2][4]bool{}
	d.restart = 0
	d.jfif, d.adobe, d.adobeTransform = false, false, 0
	d.frame = false
	d.comps = nil
}

// parse reads the markers of one stream. A tables-only stream may hold
// no frame.
func (d *Decoder) parse(s []byte, o Options, tablesOnly bool) error {
	if len(s) < 2 || s[0] != 0xFF || s[1] != mSOI {
		return errorf("the stream does not start with SOI")
	}
	p := 2
	for {
		// Find the next marker: 0xFF fill bytes may precede its code.
		if p >= len(s) {
			if !tablesOnly && d.frame && d.allDone() {
				return nil // a missing EOI after a whole image
			}
			return errorf("the stream ends at byte %d before its EOI marker", p)
		}
		if s[p] != 0xFF {
			return errorf("byte %d is 0x%02X, not a marker", p, s[p])
		}
		for p < len(s) && s[p] == 0xFF {
			p++
		}
		if p >= len(s) {
			return errorf("the stream ends inside a marker")
		}
		m := s[p]
		p++
		switch {
		case m == mEOI:
			if tablesOnly {
				return nil
			}
			if !d.frame {
				return errorf("the stream holds no frame")
			}
			if !d.allDone() {
				return errorf("the stream ends before every component was coded")
			}
			return nil
		case m >= mRST0 && m <= mRST7, m == 0x01:
			continue // stray parameterless markers: libjpeg skips them too
		case m == mSOI:
			return errorf("a second SOI marker at byte %d", p-2)
		}
		if p+2 > len(s) {
			return errorf("the stream ends inside the length of marker 0x%02X", m)
		}
		n := int(s[p])<<8 | int(s[p+1])
		if n < 2 || p+n > len(s) {
			return errorf("marker 0x%02X at byte %d has length %d, beyond the stream's %d bytes", m, p-2, n, len(s))
		}
		seg := s[p+2 : p+n]
		p += n
		var err error
		switch {
		case m == mDQT:
			err = d.parseDQT(seg)
		case m == mDHT:
			err = d.parseDHT(seg)
		case m == mDRI:
			if len(seg) != 2 {
				err = errorf("DRI of %d bytes, want 2", len(seg))
			}
			if err == nil {
				d.restart = int(seg[0])<<8 | int(seg[1])
			}
		case m == mAPP0:
			if len(seg) >= 5 && string(seg[:5]) == "JFIF\x00" {
				d.jfif = true
			}
		case m == mAPPE:
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				d.adobe, d.adobeTransform = true, int(seg[11])
			}
		case m > mAPP0 && m < 0xF0, m == 0xFE: // other APPn, COM
		case tablesOnly:
			return errorf("marker 0x%02X in a tables-only stream", m)
		case m == mSOF0 || m == mSOF1:
			err = d.parseSOF(seg, o)
		case m >= 0xC2 && m <= 0xCF && m != mDHT && m != 0xC8 && m != 0xCC:
			return errorf("SOF%d frames (progressive, lossless or arithmetic-coded) are not supported, only baseline", m-0xC0)
		case m == mSOS:
			var end int
			end, err = d.scan(seg, s, p)
			p = end
		case m == mDNL:
			return errorf("DNL markers are not supported")
		default:
			return errorf("unexpected marker 0x%02X at byte %d", m, p-n-2)
		}
		if err != nil {
			return err
		}
	}
}

func (d *Decoder) allDone() bool {
	for i := range d.comps {
		if !d.comps[i].done {
			return false
		}
	}
	return true
}

// zigzag[k] is the natural (row-major) index of the k-th coefficient in
// zigzag order (T.81 figure A.6).
const zigzag = "" +
	"\x00\x01\x08\x10\x09\x02\x03\x0a" +
	"\x11\x18\x20\x19\x12\x0b\x04\x05" +
	"\x0c\x13\x1a\x21\x28\x30\x29\x22" +
	"\x1b\x14\x0d\x06\x07\x0e\x15\x1c" +
	"\x23\x2a\x31\x38\x39\x32\x2b\x24" +
	"\x1d\x16\x0f\x17\x1e\x25\x2c\x33" +
	"\x3a\x3b\x34\x2d\x26\x1f\x27\x2e" +
	"\x35\x3c\x3d\x36\x2f\x37\x3e\x3f"

func (d *Decoder) parseDQT(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := int(seg[0]>>4), int(seg[0]&15)
		if pq > 1 || tq > 3 {
			return errorf("DQT of precision %d for table %d", pq, tq)
		}
		size := 64 << pq
		if len(seg) < 1+size {
			return errorf("DQT table %d is cut short", tq)
		}
		for k := range 64 {
			var q int32
			if pq == 0 {
				q = int32(seg[1+k])
			} else {
				q = int32(seg[1+2*k])<<8 | int32(seg[2+2*k])
			}
			d.quant[tq][zigzag[k]] = q
		}
		d.quantSet[tq] = true
		seg = seg[1+size:]
	}
	return nil
}

func (d *Decoder) parseDHT(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return errorf("DHT is cut short")
		}
		tc, th := int(seg[0]>>4), int(seg[0]&15)
		if tc > 1 || th > 3 {
			return errorf("DHT of class %d for table %d", tc, th)
		}
		var counts [16]int
		total := 0
		for i := range 16 {
			counts[i] = int(seg[1+i])
			total += counts[i]
		}
		if total > 256 || len(seg) < 17+total {
			return errorf("DHT table %d/%d holds %d codes in %d bytes", tc, th, total, len(seg)-17)
		}
		if err := d.huff[tc][th].build(counts, seg[17:17+total]); err != nil {
			return err
		}
		d.huffSet[tc][th] = true
		seg = seg[17+total:]
	}
	return nil
}

func (d *Decoder) parseSOF(seg []byte, o Options) error {
	if d.frame {
		return errorf("a second frame header")
	}
	if len(seg) < 6 {
		return errorf("SOF of %d bytes", len(seg))
	}
	if seg[0] != 8 {
		return errorf("%d-bit samples are not supported, only 8", seg[0])
	}
	h, w, nf := int(seg[1])<<8|int(seg[2]), int(seg[3])<<8|int(seg[4]), int(seg[5])
	if w == 0 || h == 0 {
		return errorf("a frame of %dx%d pixels", w, h)
	}
	if w > o.MaxWidth || h > o.MaxHeight {
		return errorf("a frame of %dx%d pixels, more than the %dx%d allowed", w, h, o.MaxWidth, o.MaxHeight)
	}
	if nf != 1 && nf != 3 {
		return errorf("%d components, want 1 or 3", nf)
	}
	if len(seg) != 6+3*nf {
		return errorf("SOF of %d bytes for %d components", len(seg), nf)
	}
	d.comps = d.compsBuf[:nf]
	d.hmax, d.vmax = 1, 1
	for i := range nf {
		c := seg[6+3*i:]
		hs, vs, tq := int(c[1]>>4), int(c[1]&15), int(c[2])
		if hs < 1 || hs > 4 || vs < 1 || vs > 4 || tq > 3 {
			return errorf("component %d: sampling %dx%d, table %d", i, hs, vs, tq)
		}
		for j := range i {
			if d.comps[j].id == int(c[0]) {
				return errorf("two components with id %d", c[0])
			}
		}
		d.comps[i] = component{id: int(c[0]), h: hs, v: vs, tq: tq}
		d.hmax, d.vmax = max(d.hmax, hs), max(d.vmax, vs)
	}
	d.width, d.height = w, h
	d.mcusX = (w + 8*d.hmax - 1) / (8 * d.hmax)
	d.mcusY = (h + 8*d.vmax - 1) / (8 * d.vmax)
	total := 0
	for i := range d.comps {
		c := &d.comps[i]
		if d.hmax%c.h != 0 || d.vmax%c.v != 0 {
			return errorf("component %d: sampling %dx%d does not divide %dx%d", i, c.h, c.v, d.hmax, d.vmax)
		}
		c.bx, c.by = d.mcusX*c.h, d.mcusY*c.v
		c.dw = (w*c.h + d.hmax - 1) / d.hmax
		c.dh = (h*c.v + d.vmax - 1) / d.vmax
		total += c.bx * c.by * 64
	}
	// Bounded: at most 3 components of (MaxWidth+31) × (MaxHeight+31).
	if cap(d.planes) < total {
		d.planes = make([]byte, total)
	}
	off := 0
	for i := range d.comps {
		c := &d.comps[i]
		n := c.bx * c.by * 64
		c.plane = d.planes[off : off+n : off+n]
		off += n
	}
	d.frame = true
	return nil
}
