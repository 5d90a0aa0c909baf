package jpegdec

// lookBits is how many leading bits the fast table of a Huffman table
// resolves at once; longer codes are found code length by code length.
const lookBits = 9

// huffTable is one Huffman table, built from the counts of codes of each
// length and their values in order (T.81 annex C).
type huffTable struct {
	// fast[b] for the next lookBits bits b: the code's length << 8 | its
	// value, or 0 when the code is longer than lookBits (or invalid).
	fast [1 << lookBits]uint16
	// maxCode[l] is the largest code of length l (-1 for none); valPtr[l]
	// the index in vals of the first code of length l, minCode[l] its code.
	maxCode [17]int32
	minCode [17]int32
	valPtr  [17]int32
	vals    [256]uint8
}

// build derives the codes: codes of each length are consecutive, and the
// first code of length l+1 is (the last code of length l + 1) × 2.
func (t *huffTable) build(counts [16]int, vals []byte) error {
	*t = huffTable{}
	copy(t.vals[:], vals)
	code, k := int32(0), 0
	for l := 1; l <= 16; l++ {
		n := counts[l-1]
		t.valPtr[l] = int32(k)
		t.minCode[l] = code
		if n == 0 {
			t.maxCode[l] = -1
		} else {
			t.maxCode[l] = code + int32(n) - 1
		}
		if code+int32(n) > 1<<l {
			return errorf("a Huffman table with more codes of length %d than fit", l)
		}
		if l <= lookBits {
			for i := range n {
				c := code + int32(i)
				shift := lookBits - l
				for b := c << shift; b < (c+1)<<shift; b++ {
					t.fast[b] = uint16(l)<<8 | uint16(vals[k+i])
				}
			}
		}
		code = (code + int32(n)) << 1
		k += n
	}
	return nil
}

// bitReader reads the entropy-coded bits of a scan: 0xFF 0x00 is a
// stuffed 0xFF; any other marker ends the data. Past the end it supplies
// zero bits, and consuming one of them is an error (a truncated stream).
type bitReader struct {
	s   []byte
	pos int
	acc uint64 // the next n bits, in the low bits of acc
	n   int
	pad int  // zero bits appended past the end (the low pad bits of acc)
	end bool // a marker or the stream's end was reached
}

func (b *bitReader) init(s []byte, pos int) {
	*b = bitReader{s: s, pos: pos}
}

// fill tops acc up to more than 56 bits.
func (b *bitReader) fill() {
	for b.n <= 56 {
		if b.end {
			b.acc <<= 8
			b.n += 8
			b.pad += 8
			continue
		}
		if b.pos >= len(b.s) {
			b.end = true
			continue
		}
		c := b.s[b.pos]
		if c == 0xFF {
			q := b.pos + 1
			for q < len(b.s) && b.s[q] == 0xFF {
				q++
			}
			if q < len(b.s) && b.s[q] == 0 {
				b.pos = q + 1
			} else {
				b.end = true // a marker: left for the parser
				continue
			}
		} else {
			b.pos++
		}
		b.acc = b.acc<<8 | uint64(c)
		b.n += 8
	}
}

// consume drops k bits, failing when they run into the padding.
func (b *bitReader) consume(k int) error {
	b.n -= k
	if b.n < b.pad {
		return errorf("the entropy-coded data ends early (truncated or corrupt)")
	}
	return nil
}

// bits returns the next k (0 < k ≤ 16) bits.
func (b *bitReader) bits(k int) (int32, error) {
	if b.n < k {
		b.fill()
	}
	v := int32(b.acc>>(b.n-k)) & (1<<k - 1)
	return v, b.consume(k)
}

// decode reads one Huffman-coded value.
func (b *bitReader) decode(t *huffTable) (int, error) {
	if b.n < 16 {
		b.fill()
	}
	e := t.fast[(b.acc>>(b.n-lookBits))&(1<<lookBits-1)]
	if e != 0 {
		return int(e & 0xFF), b.consume(int(e >> 8))
	}
	for l := lookBits + 1; l <= 16; l++ {
		c := int32(b.acc>>(b.n-l)) & (1<<l - 1)
		if c <= t.maxCode[l] {
			return int(t.vals[t.valPtr[l]+c-t.minCode[l]]), b.consume(l)
		}
	}
	return 0, errorf("an invalid Huffman code")
}

// receiveExtend reads s bits and extends them to a signed value (T.81
// F.2.2.1): values below 2^(s-1) are negative.
func (b *bitReader) receiveExtend(s int) (int32, error) {
	if s == 0 {
		return 0, nil
	}
	v, err := b.bits(s)
	if v < 1<<(s-1) {
		v += -1<<s + 1
	}
	return v, err
}

// nextMarker returns the index of the code byte of the first marker at
// or after p (skipping any bytes before it, as libjpeg does with a
// warning), or len(s) when there is none.
func nextMarker(s []byte, p int) int {
	for ; p+1 < len(s); p++ {
		if s[p] == 0xFF && s[p+1] != 0 && s[p+1] != 0xFF {
			return p + 1
		}
	}
	return len(s)
}

// restart skips to the restart marker RSTn that must come next and
// resets the reader after it.
func (b *bitReader) restart(n int) error {
	p := nextMarker(b.s, b.pos)
	if p >= len(b.s) || b.s[p] != byte(mRST0+n) {
		return errorf("restart marker %d missing after byte %d", n, b.pos)
	}
	b.init(b.s, p+1)
	return nil
}
