// Package jpegdec decodes the baseline JPEG streams that TIFF files hold
// in their tiles and strips (TIFF compression 7) with the same samples as
// libjpeg-turbo produces under its default settings, which is how GDAL
// reads such files (through libtiff, JPEGCOLORMODE=RGB).
//
// It follows ITU-T T.81: sequential Huffman coding (SOF0 and SOF1) of
// 8-bit samples, 1 or 3 components, restart markers, quantisation and
// Huffman tables given in the stream itself or beforehand in an
// abbreviated table-specification stream (the TIFF JPEGTables tag,
// [Options.Tables]). To equal libjpeg-turbo sample for sample it uses the
// published algorithms libjpeg uses by default:
//
//   - the "islow" inverse DCT: the Loeffler–Ligtenberg–Moschytz
//     factorisation in 13-bit fixed point with 2 extra bits between the
//     column and the row pass, results rounded and clamped to 0–255;
//   - "fancy" chroma upsampling of 2×1 and 2×2 subsampled components (each
//     output 3/4 its nearer input and 1/4 the next, with libjpeg's biases,
//     edges replicated; plain replication for a component 2 samples wide
//     or less);
//   - YCbCr → RGB in 16-bit fixed point with libjpeg's rounding.
//
// Other sampling factors, progressive, lossless, arithmetic-coded and
// 12-bit streams are refused with an error.
//
// Input is untrusted: the frame's size is checked against
// [Options.MaxWidth] and [Options.MaxHeight] before anything is
// allocated for it, and a truncated or corrupt stream is an error, never a
// panic.
//
// # Usage
//
//	var d jpegdec.Decoder // reuse it: it keeps its buffers
//	img, err := d.Decode(tile, jpegdec.Options{
//		Tables: jpegTables, MaxWidth: 512, MaxHeight: 512,
//		Color: jpegdec.ColorYCbCr,
//	})
//	// img.Pix holds img.Height rows of img.Width × img.Components bytes.
package jpegdec
