package tiles3d

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// zipOverhead is what the zip adds per entry beside its name twice: a
// 30-byte local header, a 16-byte data descriptor, a 46-byte central
// directory entry and, in both headers, a 9-byte extended timestamp.
const zipOverhead = 30 + 16 + 46 + 2*9

// zipEnd is the end-of-central-directory record.
const zipEnd = 22

// writeZip writes the selection into w: the cut tileset JSON files first
// (deflated, tileset.json the first of all), then each file of sel.files
// from the tileset directory dir, stored as it is, all dated now. It
// reports progress after each entry through progress. Each entry is
// deflated or copied in a turn at CPU work of its own (see paced).
func writeZip(ctx context.Context, w io.Writer, dir string, sel *selection, progress func(done int) error) error {
	root, err := sourcefs.OpenRoot(dir)
	if err != nil {
		return export.Permanent("the 3D record's tileset cannot be read", err)
	}
	defer root.Close()
	zw := zip.NewWriter(w)
	now := time.Now()
	done := 0
	for _, js := range sel.jsons {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: js.name, Method: zip.Deflate, Modified: now})
		if err != nil {
			return fmt.Errorf("zip: %w", err)
		}
		if err := paced(ctx, func() error {
			_, err := f.Write(js.data)
			return err
		}); err != nil {
			return fmt.Errorf("zip: %w", err)
		}
		done++
		if err := progress(done); err != nil {
			return err
		}
	}
	for _, u := range sel.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := paced(ctx, func() error { return copyEntry(ctx, zw, root, u, now) }); err != nil {
			return err
		}
		done++
		if err := progress(done); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	return nil
}

// copyEntry stores the file u of the tileset directory as it is: a
// regular file inside the directory (see sourcefs) of at most
// MaxContentBytes, copied to the size it had when opened. A stop (ctx
// ending) is seen between any two reads, within a file of a gigabyte too.
func copyEntry(ctx context.Context, zw *zip.Writer, root *sourcefs.Root, u string, modified time.Time) error {
	f, st, err := root.Open(u)
	if err != nil {
		return contentFault(err)
	}
	defer f.Close()
	if st.Size() > MaxContentBytes {
		return contentFault(&sourcefs.Error{Name: u, Err: sourcefs.ErrTooLarge,
			Detail: fmt.Sprintf("%d bytes, the limit is %d", st.Size(), MaxContentBytes)})
	}
	w, err := zw.CreateHeader(&zip.FileHeader{Name: u, Method: zip.Store, Modified: modified})
	if err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	if _, err := io.CopyN(w, ctxReader{ctx, f}, st.Size()); err != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		if errors.Is(err, io.EOF) {
			return contentFault(&sourcefs.Error{Name: u, Err: errors.New("shrank while it was read")})
		}
		return fmt.Errorf("zip: %s: %w", u, err)
	}
	return nil
}

// ctxReader is a reader that fails with its context's error once the
// context has ended.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
