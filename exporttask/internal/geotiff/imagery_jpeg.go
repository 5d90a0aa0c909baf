package geotiff

import "github.com/openapi-viewer/viewer/exporttask/internal/jpegdec"

// jpegBlock decodes JPEG-compressed block i of l (TIFF compression 7) into
// out, rows × bw pixels of spp samples. A block holds an abbreviated JPEG
// stream whose tables are in the JPEGTables tag. It is decoded by
// [jpegdec], whose samples equal libjpeg-turbo's, so they are those GDAL
// reads: as libtiff does, YCbCr is converted to RGB when the TIFF's
// photometric interpretation says YCbCr, whatever the stream's markers
// say, and other components are kept as coded.
func (r *ImageryReader) jpegBlock(l *layout, i, rows int, out []byte) error {
	raw, err := r.stored(l, i, len(out))
	if err != nil {
		return err
	}
	if raw == nil {
		clear(out)
		return nil
	}
	color := jpegdec.ColorAsIs // libtiff converts only what the TIFF calls YCbCr
	if l.photometric == photoYCbCr {
		color = jpegdec.ColorYCbCr
	}
	m, err := r.jpeg.Decode(raw, jpegdec.Options{Tables: l.jpegTables, MaxWidth: l.bw, MaxHeight: l.bh, Color: color})
	if err != nil {
		return errorf("block %d: %w", i, err)
	}
	if m.Width != l.bw || m.Height < rows {
		return errorf("block %d is a JPEG image of %dx%d pixels, want %d wide and %d to %d high", i, m.Width, m.Height, l.bw, rows, l.bh)
	}
	if m.Components != l.spp {
		return errorf("block %d is a JPEG image of %d components in a file of %d bands", i, m.Components, l.spp)
	}
	copy(out, m.Pix[:rows*l.bw*l.spp])
	return nil
}
