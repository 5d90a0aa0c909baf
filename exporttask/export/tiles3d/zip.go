package tiles3d

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// zipOverhead is what the zip adds per entry beside its name twice: a
// 30-byte local header, a 16-byte data descriptor, a 46-byte central
// directory entry and, in both headers, a 9-byte extended timestamp.
const zipOverhead = 30 + 16 + 46 + 2*9

// zipEnd is the end-of-central-directory record.
const zipEnd = 22

// writeZip writes the subset tileset and its contents into w: tileset.json
// first (deflated), then each content file stored as it is, all dated now.
// It reports
// progress after each entry through progress.
func writeZip(ctx context.Context, w io.Writer, dir string, ts *Tileset, uris []string, progress func(done int) error) error {
	zw := zip.NewWriter(w)
	now := time.Now()
	js, err := json.Marshal(ts)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", TilesetFile, err)
	}
	f, err := zw.CreateHeader(&zip.FileHeader{Name: TilesetFile, Method: zip.Deflate, Modified: now})
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
		if err := copyEntry(zw, dir, u, now); err != nil {
			return err
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

// copyEntry stores the content file u of the tileset in dir as it is.
func copyEntry(zw *zip.Writer, dir, u string, modified time.Time) error {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(u)))
	if err != nil {
		return exporttask.Permanent("the 3D record's tile content cannot be read", err)
	}
	defer f.Close()
	w, err := zw.CreateHeader(&zip.FileHeader{Name: u, Method: zip.Store, Modified: modified})
	if err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("zip: %s: %w", u, err)
	}
	return nil
}
