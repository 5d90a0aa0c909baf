package geotiff

// TIFF field types (TIFF 6.0, section 2; BigTIFF's 16 to 18).
const (
	typeByte      = 1
	typeASCII     = 2
	typeShort     = 3
	typeLong      = 4
	typeRational  = 5 // two longs
	typeSByte     = 6
	typeUndefined = 7 // bytes
	typeSShort    = 8
	typeSLong     = 9
	typeSRational = 10 // two signed longs
	typeFloat     = 11 // IEEE 32-bit
	typeDouble    = 12
	typeIFD       = 13 // a 32-bit offset
	typeLong8     = 16 // BigTIFF's 64-bit integers and offset
	typeSLong8    = 17
	typeIFD8      = 18
)

// Tags the reader interprets (those of 8-bit imagery are in imagery.go).
const (
	tagNewSubfileType  = 254
	tagImageWidth      = 256
	tagImageLength     = 257
	tagBitsPerSample   = 258
	tagCompression     = 259
	tagPhotometric     = 262
	tagStripOffsets    = 273
	tagSamplesPerPixel = 277
	tagRowsPerStrip    = 278
	tagStripByteCounts = 279
	tagPlanarConfig    = 284
	tagPredictor       = 317
	tagTileWidth       = 322
	tagTileLength      = 323
	tagTileOffsets     = 324
	tagTileByteCounts  = 325
	tagSampleFormat    = 339
	tagModelPixelScale = 33550
	tagModelTiepoint   = 33922
	tagModelTransform  = 34264
	tagGeoKeyDirectory = 34735
	tagGeoDoubleParams = 34736
	tagGeoASCIIParams  = 34737
	tagGDALNoData      = 42113
)
