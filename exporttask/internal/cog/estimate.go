package cog

import "fmt"

// A Sampler measures the bytes tiles take in the COG as [WriteWith]
// stores them (the predictor, then Deflate), reusing its buffers: an
// estimate compresses a few tiles' worth of the source with it to learn
// the ratios the writer reaches on that terrain. It is not safe for
// concurrent use.
type Sampler struct {
	img  Image
	enc  *encoder
	tile []byte    // an overview tile
	vals []float64 // a source row of an overview
}

// NewSampler returns a Sampler of img's tiles.
func NewSampler(img Image) (*Sampler, error) {
	if err := img.Validate(); err != nil {
		return nil, err
	}
	e, err := newEncoder(img)
	if err != nil {
		return nil, err
	}
	bs := img.blockSize()
	return &Sampler{img: img, enc: e, tile: make([]byte, bs*bs*img.BitsPerSample/8), vals: make([]float64, 2*bs)}, nil
}

// TileSize returns the bytes tile takes in the COG: tile holds its
// BlockSize × BlockSize samples (img's sample type, little-endian) in
// rows.
func (s *Sampler) TileSize(tile []byte) (int, error) {
	bs := s.img.blockSize()
	rowLen := bs * s.img.BitsPerSample / 8
	if len(tile) != bs*rowLen {
		return 0, fmt.Errorf("cog: a tile of %d × %d samples of %d bits is %d bytes, not %d", bs, bs, s.img.BitsPerSample, bs*rowLen, len(tile))
	}
	b, err := s.enc.encode(s.img, tile, rowLen, 0)
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// OverviewTileSize returns the bytes the overview tile of block takes in
// the COG: block holds 2·BlockSize × 2·BlockSize samples (as for
// TileSize), which are averaged down to one tile as the writer makes its
// first overview. Overviews compress worse than the full resolution
// (their neighbouring samples differ more), so an estimate measures that
// too.
func (s *Sampler) OverviewTileSize(block []byte) (int, error) {
	bs := s.img.blockSize()
	k := s.img.kind()
	sample := s.img.BitsPerSample / 8
	srcRow := 2 * bs * sample
	if len(block) != 2*bs*srcRow {
		return 0, fmt.Errorf("cog: a block of %d × %d samples of %d bits is %d bytes, not %d", 2*bs, 2*bs, s.img.BitsPerSample, 2*bs*srcRow, len(block))
	}
	hasND, nd := s.img.noData()
	r := newReducer(k, hasND, nd, 2*bs, 2*bs, bs, bs)
	for y := range 2 * bs {
		k.decode(block[y*srcRow:(y+1)*srcRow], s.vals)
		err := r.push(y, s.vals, func(oy int, row []float64) error {
			k.encode(row, s.tile[oy*bs*sample:(oy+1)*bs*sample])
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return s.TileSize(s.tile)
}
