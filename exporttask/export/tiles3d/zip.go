package tiles3d

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
)

// zipOverhead is what the zip adds per stored entry beside its name twice:
// a 30-byte local header and a 46-byte central directory entry.
const zipOverhead = 30 + 46

// zipEnd is the end-of-central-directory record.
const zipEnd = 22

// writeZip writes the subset tileset and its contents into w: tileset.json
// first (deflated), then each content file stored as it is. It reports
// progress after each entry through progress.
func writeZip(ctx context.Context, w io.Writer, dir string, ts *Tileset, uris []string, progress func(done int) error) error {
	zw := zip.NewWriter(w)
	js, err := json.Marshal(ts)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", TilesetFile, err)
	}
	f, err := zw.CreateHeader(&zip.FileHeader{Name: TilesetFile, Method: zip.Deflate})
	if err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	if _, err := f.Write(js); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	if err := progress(1); err != nil {
		return err
	}
	for i, u := range uris {
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(u)))
		if err != nil {
			return exporttask.Permanent("the 3D record's tile content cannot be read", err)
		}
		// Stored with the sizes and CRC in the local header (no data
		// descriptor): every zip reader takes that.
		h := &zip.FileHeader{Name: u, Method: zip.Store, CRC32: crc32.ChecksumIEEE(data),
			CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(data))}
		f, err := zw.CreateRaw(h)
		if err != nil {
			return fmt.Errorf("zip: %w", err)
		}
		if _, err := f.Write(data); err != nil {
			return fmt.Errorf("zip: %w", err)
		}
		if err := progress(i + 2); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	return nil
}
