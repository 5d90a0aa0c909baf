package geotiff

import (
	"fmt"
	"slices"
	"sort"
)

// Tags of 8-bit imagery the reader interprets.
const (
	tagColorMap     = 320
	tagExtraSamples = 338
	tagJPEGTables   = 347
)

// PhotometricInterpretation values of imagery.
const (
	photoWhiteIsZero = 0
	photoBlackIsZero = 1
	photoRGB         = 2
	photoPalette     = 3
	photoMask        = 4
	photoYCbCr       = 6
)

// maxJPEGTablesBytes bounds the JPEGTables tag: quantisation and Huffman
// tables take well under a kilobyte.
const maxJPEGTablesBytes = 64 << 10

// Imagery is a [File] read as an image of 8-bit samples: gray, gray and
// alpha, RGB, RGBA or paletted, with its overviews and transparency masks.
// [File.Imagery] returns it; [Level.Block] decodes its blocks as RGBA.
type Imagery struct {
	f *File
	// Levels are the full-resolution image (Levels[0]) and its overviews,
	// from the finest to the coarsest.
	Levels []*Level
	// Bands is the number of samples per pixel (1 to 4).
	Bands int
	// Kind says how samples become colours: "gray", "gray+alpha", "rgb",
	// "rgba" or "palette".
	Kind string
	// Masked is true when the image has a transparency mask (GDAL's
	// internal mask, a NewSubfileType 4 IFD).
	Masked bool
	// JPEG is true when the blocks are JPEG-compressed.
	JPEG bool

	palette   [256][4]uint8
	noData    int // the GDAL_NODATA sample value, -1 for none
	alphaBand int // the band holding alpha, -1 for none
}

// Level is one resolution of an [Imagery]: the full image or an overview.
type Level struct {
	img *Imagery
	// Width and Height are the level's size in pixels.
	Width, Height int
	// BlockWidth and BlockHeight are its tile size, or width and rows per
	// strip.
	BlockWidth, BlockHeight int
	lay                     *layout
	mask                    *layout // its transparency mask, or nil
}

// layout is the storage of one IFD's image.
type layout struct {
	width, height, spp, bits, format, planar, photometric int
	compression, predictor                                int
	tiled                                                 bool
	bw, bh, across, down                                  int
	offsets, counts                                       []uint64
	jpegTables                                            []byte
	extra                                                 []uint64
	colorMap                                              []uint64
}

// blockRows returns the rows of block row by that hold pixels.
func (l *layout) blockRows(by int) int {
	if l.tiled {
		return l.bh
	}
	return min(l.bh, l.height-by*l.bh)
}

// parseLayout reads an IFD's image storage tags (for [File] and for
// every level and mask of an [Imagery]), checking each block lies inside
// the file.
func (f *File) parseLayout(entries map[uint16]entry) (*layout, error) {
	one := func(tag uint16, def uint64, name string, lo, hi uint64) (int, error) {
		v, err := f.uintValue(entries, tag, def)
		if err != nil {
			return 0, err
		}
		if v < lo || v > hi {
			return 0, errorf("%s is %d, out of range [%d, %d]", name, v, lo, hi)
		}
		return int(v), nil
	}
	l := &layout{}
	var err error
	fields := []struct {
		dst    *int
		tag    uint16
		def    uint64
		name   string
		lo, hi uint64
	}{
		{&l.width, tagImageWidth, 0, "ImageWidth", 1, maxDimension},
		{&l.height, tagImageLength, 0, "ImageLength", 1, maxDimension},
		{&l.spp, tagSamplesPerPixel, 1, "SamplesPerPixel", 1, 1024},
		{&l.bits, tagBitsPerSample, 1, "BitsPerSample", 1, 128},
		{&l.format, tagSampleFormat, 1, "SampleFormat", 1, 6},
		{&l.planar, tagPlanarConfig, 1, "PlanarConfiguration", 1, 2},
		{&l.photometric, tagPhotometric, 1, "PhotometricInterpretation", 0, 65535},
		{&l.compression, tagCompression, 1, "Compression", 1, 65535},
		{&l.predictor, tagPredictor, 1, "Predictor", 1, 65535},
	}
	for _, fd := range fields {
		if *fd.dst, err = one(fd.tag, fd.def, fd.name, fd.lo, fd.hi); err != nil {
			return nil, err
		}
	}
	var offTag, countTag uint16
	if _, ok := entries[tagTileWidth]; ok {
		l.tiled = true
		if l.bw, err = one(tagTileWidth, 0, "TileWidth", 1, maxDimension); err != nil {
			return nil, err
		}
		if l.bh, err = one(tagTileLength, 0, "TileLength", 1, maxDimension); err != nil {
			return nil, err
		}
		offTag, countTag = tagTileOffsets, tagTileByteCounts
	} else {
		l.bw = l.width
		rps, err := f.uintValue(entries, tagRowsPerStrip, uint64(l.height))
		if err != nil {
			return nil, err
		}
		if rps == 0 {
			return nil, errorf("RowsPerStrip is 0")
		}
		l.bh = int(min(rps, uint64(l.height)))
		offTag, countTag = tagStripOffsets, tagStripByteCounts
	}
	l.across = (l.width + l.bw - 1) / l.bw
	l.down = (l.height + l.bh - 1) / l.bh
	want := uint64(l.across) * uint64(l.down)
	if l.planar == 2 {
		want *= uint64(l.spp)
	}
	if want > maxBlocks {
		return nil, errorf("%d blocks, more than %d", want, maxBlocks)
	}
	if l.offsets, err = f.uints(entries, offTag); err != nil {
		return nil, err
	}
	if l.counts, err = f.uints(entries, countTag); err != nil {
		return nil, err
	}
	kind := map[bool]string{false: "strip", true: "tile"}[l.tiled]
	if uint64(len(l.offsets)) != want || uint64(len(l.counts)) != want {
		return nil, errorf("%d %s offsets and %d byte counts, want %d each for %dx%d pixels in %dx%d %ss",
			len(l.offsets), kind, len(l.counts), want, l.width, l.height, l.bw, l.bh, kind)
	}
	for i, off := range l.offsets {
		if c := l.counts[i]; off > uint64(f.size) || c > uint64(f.size)-off {
			return nil, errorf("%s %d (%d bytes at offset %d) ends past the end of the file (%d bytes): the file is truncated",
				kind, i, c, off, f.size)
		}
	}
	return l, nil
}

// parseImageryTags reads the tags only imagery needs: JPEGTables,
// ExtraSamples and ColorMap.
func (f *File) parseImageryTags(l *layout, entries map[uint16]entry) error {
	var err error
	if e, ok := entries[tagJPEGTables]; ok {
		if e.count > maxJPEGTablesBytes {
			return errorf("JPEGTables holds %d bytes, more than %d", e.count, maxJPEGTablesBytes)
		}
		if l.jpegTables, err = f.raw(e); err != nil {
			return err
		}
	}
	if l.extra, err = f.uints(entries, tagExtraSamples); err != nil {
		return err
	}
	l.colorMap, err = f.uints(entries, tagColorMap)
	return err
}

// Imagery reads the file as 8-bit imagery: 1 to 4 bands of unsigned 8-bit
// samples (gray, gray and alpha, RGB, RGBA, or paletted with a ColorMap),
// chunky or planar, compressed with none, LZW, Deflate, PackBits or JPEG
// (with JPEGTables; YCbCr as GDAL writes it with PHOTOMETRIC=YCBCR),
// predictor 1 or 2. Overviews and GDAL's internal transparency masks
// (NewSubfileType 4 IFDs of 1-bit samples, one per resolution, matched by
// size) are found; a GDAL_NODATA value makes the pixels holding it (in
// every band) transparent. Anything else is an error naming it.
func (f *File) Imagery() (*Imagery, error) {
	img := &Imagery{f: f, noData: -1, alphaBand: -1}
	var masks []*layout
	for _, ifd := range f.ifds {
		lay, err := f.parseLayout(ifd.entries)
		if err == nil {
			err = f.parseImageryTags(lay, ifd.entries)
		}
		if err != nil {
			return nil, err
		}
		if ifd.subfile&subfileMask != 0 {
			if lay.bits != 1 || lay.spp != 1 || lay.photometric != photoMask {
				continue // not a mask GDAL writes; GDAL ignores it too
			}
			if err := checkCompression(lay); err != nil {
				return nil, fmt.Errorf("%w (a transparency mask)", err)
			}
			masks = append(masks, lay)
			continue
		}
		if len(img.Levels) > 0 && ifd.subfile&subfileReduced == 0 {
			continue // a second image of a multi-page file
		}
		img.Levels = append(img.Levels, &Level{img: img, Width: lay.width, Height: lay.height,
			BlockWidth: lay.bw, BlockHeight: lay.bh, lay: lay})
	}
	if len(img.Levels) == 0 {
		return nil, errorf("no full-resolution image")
	}
	base := img.Levels[0].lay
	if err := img.describe(base); err != nil {
		return nil, err
	}
	for _, lv := range img.Levels[1:] {
		l := lv.lay
		if l.spp != base.spp || l.bits != base.bits || l.photometric != base.photometric || l.planar != base.planar {
			return nil, errorf("an overview of %dx%d pixels has another sample layout than the image", l.width, l.height)
		}
		if err := checkCompression(l); err != nil {
			return nil, err
		}
	}
	for _, m := range masks {
		for _, lv := range img.Levels {
			if lv.mask == nil && lv.Width == m.width && lv.Height == m.height {
				lv.mask = m
				img.Masked = true
				break
			}
		}
	}
	// Overviews from the finest to the coarsest; one not smaller than the
	// image is no overview and is dropped.
	ovr := img.Levels[1:]
	ovr = slices.DeleteFunc(ovr, func(lv *Level) bool {
		return lv.Width >= img.Levels[0].Width || lv.Height >= img.Levels[0].Height
	})
	sort.SliceStable(ovr, func(i, j int) bool { return ovr[i].Width > ovr[j].Width })
	img.Levels = append(img.Levels[:1], ovr...)
	if f.HasNoData && img.alphaBand < 0 && !img.Masked {
		v, ok := ParseNoData(f.NoData)
		if ok && v >= 0 && v <= 255 && v == float64(int(v)) {
			img.noData = int(v)
		}
	}
	for _, lv := range img.Levels {
		if n := int64(lv.BlockWidth) * int64(lv.BlockHeight) * 4; n > MaxBlockBytes {
			return nil, errorf("one block of %dx%d pixels holds %d bytes as RGBA, more than %d; rewrite the file with smaller tiles "+
				"(gdal_translate -co TILED=YES)", lv.BlockWidth, lv.BlockHeight, n, MaxBlockBytes)
		}
	}
	return img, nil
}

// describe checks the full image's samples and sets the kind of colour.
func (img *Imagery) describe(l *layout) error {
	if l.bits != 8 || l.format != 1 {
		return errorf("%d-bit samples of format %d are not 8-bit imagery (unsigned bytes)", l.bits, l.format)
	}
	if err := checkCompression(l); err != nil {
		return err
	}
	img.Bands = l.spp
	img.JPEG = l.compression == compressionJPEG
	alpha := len(l.extra) > 0 && (l.extra[len(l.extra)-1] == 1 || l.extra[len(l.extra)-1] == 2)
	switch {
	case (l.photometric == photoBlackIsZero || l.photometric == photoWhiteIsZero) && l.spp == 1:
		img.Kind = "gray"
	case l.photometric == photoBlackIsZero && l.spp == 2:
		img.Kind = "gray"
		if alpha {
			img.Kind, img.alphaBand = "gray+alpha", 1
		}
	case (l.photometric == photoRGB || l.photometric == photoYCbCr) && l.spp == 3:
		img.Kind = "rgb"
	case l.photometric == photoRGB && l.spp == 4:
		img.Kind = "rgb"
		if alpha {
			img.Kind, img.alphaBand = "rgba", 3
		}
	case l.photometric == photoPalette && l.spp == 1:
		if len(l.colorMap) != 3*256 {
			return errorf("the ColorMap holds %d values, want 768 for 8-bit samples", len(l.colorMap))
		}
		img.Kind = "palette"
		for i := range 256 {
			img.palette[i] = [4]uint8{uint8(l.colorMap[i] >> 8), uint8(l.colorMap[256+i] >> 8), uint8(l.colorMap[512+i] >> 8), 255}
		}
	default:
		return errorf("%d bands of photometric interpretation %d are not gray, RGB, RGBA or paletted imagery", l.spp, l.photometric)
	}
	if l.photometric == photoYCbCr && l.compression != compressionJPEG {
		return errorf("YCbCr samples without JPEG compression are not supported; rewrite with `gdal_translate -co PHOTOMETRIC=RGB`")
	}
	return nil
}

// checkCompression refuses a compression or predictor the imagery reader
// does not decode.
func checkCompression(l *layout) error {
	switch l.compression {
	case compressionNone, compressionLZW, compressionDeflate, compressionDeflateOld, compressionPackBits:
	case compressionJPEG:
		if l.planar == 2 && l.spp > 1 {
			return errorf("planar JPEG-compressed bands are not supported")
		}
	default:
		return errorf("%s compression is not supported", CompressionName(l.compression))
	}
	if l.predictor != 1 && l.predictor != 2 {
		return errorf("predictor %d is not supported on 8-bit imagery", l.predictor)
	}
	return nil
}

// NoData returns the sample value GDAL_NODATA makes transparent, and
// whether there is one (not with an alpha band or a mask, which GDAL
// prefers).
func (img *Imagery) NoData() (int, bool) { return img.noData, img.noData >= 0 }

// HasTransparency reports whether some pixels can be transparent: the
// image has an alpha band, a mask or a nodata value.
func (img *Imagery) HasTransparency() bool {
	return img.alphaBand >= 0 || img.Masked || img.noData >= 0
}

// BlocksAcross and BlocksDown return the level's grid of blocks.
func (lv *Level) BlocksAcross() int { return lv.lay.across }

// BlocksDown returns the block rows of the level; see [Level.BlocksAcross].
func (lv *Level) BlocksDown() int { return lv.lay.down }

// Masked reports whether the level has a transparency mask.
func (lv *Level) Masked() bool { return lv.mask != nil }
