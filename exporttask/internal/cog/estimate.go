package cog

import "fmt"

// CompressedTileSize returns the bytes a tile of img takes in the COG as
// [WriteWith] stores it (the predictor, then Deflate): tile holds its
// BlockSize × BlockSize samples (img's sample type, little-endian) in
// rows. An estimate compresses a few tiles' worth of the source with it to
// learn the ratio the writer reaches on that terrain.
func CompressedTileSize(img Image, tile []byte) (int, error) {
	bs := img.blockSize()
	rowLen := bs * img.BitsPerSample / 8
	if len(tile) != bs*rowLen {
		return 0, fmt.Errorf("cog: a tile of %d × %d samples of %d bits is %d bytes, not %d", bs, bs, img.BitsPerSample, bs*rowLen, len(tile))
	}
	e, err := newEncoder(img)
	if err != nil {
		return 0, err
	}
	b, err := e.encode(img, tile, rowLen, 0)
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// CompressedOverviewTileSize returns the bytes the overview tile of
// block takes in the COG: block holds 2·BlockSize × 2·BlockSize samples
// (as for [CompressedTileSize]), which are averaged down to one tile as
// the writer makes its first overview, then compressed as it stores it.
// Overviews compress worse than the full resolution (their neighbouring
// samples differ more), so an estimate measures that too.
func CompressedOverviewTileSize(img Image, block []byte) (int, error) {
	bs := img.blockSize()
	k := img.kind()
	sample := img.BitsPerSample / 8
	srcRow := 2 * bs * sample
	if len(block) != 2*bs*srcRow {
		return 0, fmt.Errorf("cog: a block of %d × %d samples of %d bits is %d bytes, not %d", 2*bs, 2*bs, img.BitsPerSample, 2*bs*srcRow, len(block))
	}
	hasND, nd := img.noData()
	r := newReducer(k, hasND, nd, 2*bs, 2*bs, bs, bs)
	tile := make([]byte, bs*bs*sample)
	vals := make([]float64, 2*bs)
	for y := range 2 * bs {
		k.decode(block[y*srcRow:(y+1)*srcRow], vals)
		err := r.push(y, vals, func(oy int, row []float64) error {
			k.encode(row, tile[oy*bs*sample:(oy+1)*bs*sample])
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return CompressedTileSize(img, tile)
}
