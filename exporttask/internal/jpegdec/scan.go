package jpegdec

// scanComp is one component of a scan with its tables.
type scanComp struct {
	c      *component
	dc, ac *huffTable
	q      *[64]int32
	pred   int32
}

// scan decodes the scan whose header is hdr and whose entropy-coded data
// starts at s[p]; it returns the index of the marker after the data.
func (d *Decoder) scan(hdr, s []byte, p int) (int, error) {
	if !d.frame {
		return 0, errorf("SOS before the frame header")
	}
	if len(hdr) < 1 {
		return 0, errorf("an empty SOS")
	}
	ns := int(hdr[0])
	if ns < 1 || ns > len(d.comps) || len(hdr) != 4+2*ns {
		return 0, errorf("SOS of %d bytes for %d components", len(hdr), ns)
	}
	if ss, se, a := hdr[1+2*ns], hdr[2+2*ns], hdr[3+2*ns]; ss != 0 || se != 63 || a != 0 {
		return 0, errorf("a scan of spectral selection %d-%d, approximation %d: not sequential", ss, se, a)
	}
	var sc [3]scanComp
	blocks := 0
	for i := range ns {
		id, tabs := int(hdr[1+2*i]), hdr[2+2*i]
		var c *component
		for j := range d.comps {
			if d.comps[j].id == id {
				c = &d.comps[j]
			}
		}
		if c == nil {
			return 0, errorf("the scan names component %d, which the frame lacks", id)
		}
		if c.done {
			return 0, errorf("component %d is coded twice", id)
		}
		for j := range i {
			if sc[j].c == c {
				return 0, errorf("the scan names component %d twice", id)
			}
		}
		td, ta := int(tabs>>4), int(tabs&15)
		if td > 3 || ta > 3 || !d.huffSet[0][td] || !d.huffSet[1][ta] {
			return 0, errorf("component %d uses Huffman tables %d/%d, not defined", id, td, ta)
		}
		if !d.quantSet[c.tq] {
			return 0, errorf("component %d uses quantisation table %d, not defined", id, c.tq)
		}
		sc[i] = scanComp{c: c, dc: &d.huff[0][td], ac: &d.huff[1][ta], q: &d.quant[c.tq]}
		blocks += c.h * c.v
	}
	if ns > 1 && blocks > 10 {
		return 0, errorf("an MCU of %d blocks, more than 10", blocks)
	}
	d.br.init(s, p)
	var err error
	if ns == 1 {
		err = d.scanOne(&sc[0])
	} else {
		err = d.scanInterleaved(sc[:ns])
	}
	if err != nil {
		return 0, err
	}
	for i := range ns {
		sc[i].c.done = true
	}
	if m := nextMarker(s, d.br.pos); m < len(s) {
		return m - 1, nil // the marker's 0xFF
	}
	return len(s), nil

}

// scanInterleaved decodes an interleaved scan: MCUs of h × v blocks of
// each component in turn.
func (d *Decoder) scanInterleaved(sc []scanComp) error {
	left := d.restart
	rst := 0
	for my := range d.mcusY {
		for mx := range d.mcusX {
			if d.restart > 0 {
				if left == 0 {
					if err := d.br.restart(rst); err != nil {
						return err
					}
					rst = (rst + 1) & 7
					left = d.restart
					for i := range sc {
						sc[i].pred = 0
					}
				}
				left--
			}
			for i := range sc {
				k := &sc[i]
				c := k.c
				for v := range c.v {
					for h := range c.h {
						bx, by := mx*c.h+h, my*c.v+v
						if err := d.block(k, c.plane[(by*8)*(c.bx*8)+bx*8:], c.bx*8); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// scanOne decodes a scan of one component: its blocks in rows, as many as
// cover the component's own size (not whole MCUs).
func (d *Decoder) scanOne(k *scanComp) error {
	c := k.c
	across, down := (c.dw+7)/8, (c.dh+7)/8
	left := d.restart
	rst := 0
	for by := range down {
		for bx := range across {
			if d.restart > 0 {
				if left == 0 {
					if err := d.br.restart(rst); err != nil {
						return err
					}
					rst = (rst + 1) & 7
					left = d.restart
					k.pred = 0
				}
				left--
			}
			if err := d.block(k, c.plane[(by*8)*(c.bx*8)+bx*8:], c.bx*8); err != nil {
				return err
			}
		}
	}
	return nil
}

// block decodes one block's coefficients (T.81 F.2.2), dequantises them
// and writes its 8 × 8 samples at dst, rows stride apart.
func (d *Decoder) block(k *scanComp, dst []byte, stride int) error {
	br := &d.br
	if br.n < 32 {
		br.fill()
	}
	t, err := br.decode(k.dc)
	if err != nil {
		return err
	}
	if t > 15 {
		return errorf("a DC difference of category %d", t)
	}
	diff, err := br.receiveExtend(t)
	if err != nil {
		return err
	}
	// libjpeg keeps coefficients as 16-bit integers.
	k.pred = int32(int16(k.pred + diff))
	blk := &d.blk
	*blk = [64]int32{}
	blk[0] = k.pred * k.q[0]
	last := 0
	for i := 1; i < 64; {
		if br.n < 32 {
			br.fill()
		}
		rs, err := br.decode(k.ac)
		if err != nil {
			return err
		}
		r, s := rs>>4, rs&15
		if s == 0 {
			if r != 15 {
				break // end of block
			}
			i += 16
			continue
		}
		i += r
		if i > 63 {
			return errorf("a block's coefficients run past the 64th")
		}
		v, err := br.receiveExtend(s)
		if err != nil {
			return err
		}
		z := zigzag[i]
		blk[z] = int32(int16(v)) * k.q[z]
		last = i
		i++
	}
	if last == 0 {
		fillDC(blk[0], dst, stride)
		return nil
	}
	idctIslow(blk, dst, stride)
	return nil
}
