package cog

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
)

// writeTo writes the file to w: header and ghost area, the IFDs from full
// resolution down, then each level's tiles from the smallest level up.
func (p *pyramid) writeTo(ctx context.Context, w io.Writer, big bool) (int64, error) {
	f, ifds := p.format(big)
	out, first := f.header()
	at := first
	for i, fs := range ifds {
		next := uint64(0)
		if i+1 < len(ifds) {
			next = uint64(at + f.ifdSize(fs))
		}
		out = f.encodeIFD(out, at, fs, next)
		at = int64(len(out))
	}
	cw := &countWriter{w: w}
	if _, err := cw.Write(out); err != nil {
		return cw.n, fmt.Errorf("cog: writing the header: %w", err)
	}
	bw := bufio.NewWriterSize(cw, 1<<16)
	var buf []byte
	for i := len(p.levels) - 1; i >= 0; i-- {
		l := p.levels[i]
		for t, pos := range l.pos {
			if err := ctx.Err(); err != nil {
				return cw.n, fmt.Errorf("cog: writing level %d: %w", i, err)
			}
			n := int(l.sizes[t]) + 8
			if cap(buf) < n {
				buf = make([]byte, n)
			}
			if _, err := l.file.ReadAt(buf[:n], int64(pos)-4); err != nil {
				return cw.n, fmt.Errorf("cog: reading scratch file: %w", err)
			}
			if _, err := bw.Write(buf[:n]); err != nil {
				return cw.n, fmt.Errorf("cog: writing level %d: %w", i, err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, fmt.Errorf("cog: writing the tiles: %w", err)
	}
	return cw.n, nil
}

// format chooses classic TIFF, or BigTIFF when big is set or the file would
// pass 4 GiB, and returns it with the IFDs' fields.
func (p *pyramid) format(big bool) (format, [][]field) {
	f := format{big: big}
	end, ifds := p.layout(f)
	if !big && end > math.MaxUint32 {
		f.big = true
		_, ifds = p.layout(f)
	}
	return f, ifds
}

// layout returns the offset just past the last byte of the file and each
// level's IFD fields with its tile offsets filled in.
func (p *pyramid) layout(f format) (int64, [][]field) {
	_, first := f.header()
	ifds := make([][]field, len(p.levels))
	at := first
	for i, l := range p.levels {
		ifds[i] = p.img.fields(f, i, make([]uint64, len(l.sizes)), l.sizes)
		at += f.ifdSize(ifds[i])
	}
	for i := len(p.levels) - 1; i >= 0; i-- {
		l := p.levels[i]
		offs := make([]uint64, len(l.sizes))
		for j, size := range l.sizes {
			offs[j] = uint64(at) + 4
			at += int64(size) + 8
		}
		ifds[i] = p.img.fields(f, i, offs, l.sizes)
	}
	return at, ifds
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
