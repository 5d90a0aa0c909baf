package raster

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// IndexName is the file name of a RASTER record's selection index in its
// record directory: a summary of its tile pyramid (per level, row and
// 64 columns, which tiles are present and their bytes) that estimates
// read in place of the source. It is written at catalog add (see
// [WriteIndex]), or by the first estimate that finds none of the source's
// current identity; it is derived data, and removing it costs one read of
// the source's tile sizes.
const IndexName = "raster-selection.idx"

// indexMagic starts an index file; the digit is the format's version.
const indexMagic = "exporttask raster selection index 1\n"

// The sizes of an index file's parts.
const (
	maxIdentityBytes = 1 << 10
	cellBytes        = 4 + 4 + 8 + 8 + 4 + cellColumns // row, block, mask, bytes, largest, sizes
	maxIndexFile     = len(indexMagic) + 4 + maxIdentityBytes + 1 + 4 + (MaxLevel+1)*5 + maxIndexCells*cellBytes + 4
)

// indexPath is the index file of rec, or "" for a record without a
// directory.
func indexPath(rec catalog.Record) string {
	if rec.Location == "" {
		return ""
	}
	return filepath.Join(rec.Location, IndexName)
}

// writeIndexFile writes ix (nil: the source has too many cells for an
// index) as the index file path of the source identity, in one step.
func writeIndexFile(path, identity string, ix *selectionIndex) (err error) {
	if len(identity) > maxIdentityBytes {
		return fmt.Errorf("raster: index identity of %d bytes", len(identity))
	}
	var b bytes.Buffer
	b.WriteString(indexMagic)
	le := binary.LittleEndian
	b.Write(le.AppendUint32(nil, uint32(len(identity))))
	b.WriteString(identity)
	if ix == nil {
		b.WriteByte(1) // too large
		b.Write(le.AppendUint32(nil, 0))
	} else {
		b.WriteByte(0)
		b.Write(le.AppendUint32(nil, uint32(len(ix.levels))))
		for _, l := range ix.levels {
			b.WriteByte(byte(l.zoom))
			b.Write(le.AppendUint32(nil, uint32(len(l.cells))))
		}
		for _, l := range ix.levels {
			for _, c := range l.cells {
				var rec [cellBytes]byte
				le.PutUint32(rec[0:], uint32(c.row))
				le.PutUint32(rec[4:], uint32(c.block))
				le.PutUint64(rec[8:], c.mask)
				le.PutUint64(rec[16:], uint64(c.bytes))
				le.PutUint32(rec[24:], c.largest)
				copy(rec[28:], c.sizes[:])
				b.Write(rec[:])
			}
		}
	}
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))

	tmp, err := os.CreateTemp(filepath.Dir(path), "."+IndexName+"-*")
	if err != nil {
		return fmt.Errorf("raster: writing the selection index: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(b.Bytes()); err != nil {
		return fmt.Errorf("raster: writing the selection index: %w", err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("raster: writing the selection index: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("raster: writing the selection index: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("raster: writing the selection index: %w", err)
	}
	return nil
}

// errIndexFile is an index file that is not one this package wrote whole.
var errIndexFile = errors.New("not a selection index")

// readIndexFile reads the index file path. It returns nil and no error
// for the file of a source with too many cells for an index. A file of
// another identity, or one that is damaged, cut short or not a regular
// file (never opened: a FIFO does not block), is an error; the caller
// builds the index again.
func readIndexFile(path, identity string) (*selectionIndex, error) {
	if path == "" {
		return nil, errIndexFile
	}
	f, st, err := sourcefs.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > int64(maxIndexFile) || st.Size() < int64(len(indexMagic))+13 {
		return nil, fmt.Errorf("%s: %w: %d bytes", path, errIndexFile, st.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(maxIndexFile)+1))
	if err != nil {
		return nil, err
	}
	ix, err := decodeIndex(data, identity)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ix, nil
}

// decodeIndex decodes and checks an index file's bytes.
func decodeIndex(data []byte, identity string) (*selectionIndex, error) {
	le := binary.LittleEndian
	if len(data) < len(indexMagic)+13 || string(data[:len(indexMagic)]) != indexMagic {
		return nil, errIndexFile
	}
	body, sum := data[:len(data)-4], le.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum", errIndexFile)
	}
	p := body[len(indexMagic):]
	take := func(n int) ([]byte, bool) {
		if n < 0 || n > len(p) {
			return nil, false
		}
		b := p[:n]
		p = p[n:]
		return b, true
	}
	b, ok := take(4)
	if !ok {
		return nil, errIndexFile
	}
	idLen := int(le.Uint32(b))
	if idLen > maxIdentityBytes {
		return nil, errIndexFile
	}
	id, ok := take(idLen)
	if !ok {
		return nil, errIndexFile
	}
	if string(id) != identity {
		return nil, fmt.Errorf("%w of this source's data", errIndexFile)
	}
	b, ok = take(5)
	if !ok {
		return nil, errIndexFile
	}
	tooLarge, nLevels := b[0], int(le.Uint32(b[1:]))
	if tooLarge == 1 && nLevels == 0 && len(p) == 0 {
		return nil, nil
	}
	if tooLarge != 0 || nLevels > MaxLevel+1 {
		return nil, errIndexFile
	}
	ix := &selectionIndex{identity: identity}
	total := 0
	for i := 0; i < nLevels; i++ {
		b, ok := take(5)
		if !ok {
			return nil, errIndexFile
		}
		z, n := int(b[0]), int(le.Uint32(b[1:]))
		if z > MaxLevel || i > 0 && z <= ix.levels[i-1].zoom || n > maxIndexCells-total {
			return nil, errIndexFile
		}
		total += n
		ix.levels = append(ix.levels, indexLevel{zoom: z, cells: make([]indexCell, 0, n)})
	}
	if len(p) != total*cellBytes {
		return nil, errIndexFile
	}
	for li := range ix.levels {
		l := &ix.levels[li]
		w, h := matrixSize(l.zoom)
		for range cap(l.cells) {
			b, _ := take(cellBytes)
			c := indexCell{row: int32(le.Uint32(b[0:])), block: int32(le.Uint32(b[4:])), mask: le.Uint64(b[8:]),
				bytes: int64(le.Uint64(b[16:])), largest: le.Uint32(b[24:])}
			copy(c.sizes[:], b[28:])
			if c.row < 0 || int64(c.row) >= h || c.block < 0 || int64(c.block) > (w-1)/cellColumns || c.mask == 0 || c.bytes < 0 {
				return nil, errIndexFile
			}
			if n := len(l.cells); n > 0 {
				last := l.cells[n-1]
				if c.row < last.row || c.row == last.row && c.block <= last.block {
					return nil, errIndexFile
				}
			}
			l.cells = append(l.cells, c)
		}
	}
	return ix, nil
}
