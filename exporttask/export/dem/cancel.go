package dem

import (
	"context"
	"fmt"
)

// stoppingFile is a source file whose every read first looks at ctx: once
// the export is stopped, the next block read (by the window reader's
// decoders, a block at a time) fails with ctx's error, and the row being
// read ends there instead of after the rest of its row of blocks.
type stoppingFile struct {
	SourceFile
	ctx context.Context
}

func (f stoppingFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.ctx.Err(); err != nil {
		return 0, fmt.Errorf("dem: reading the source: %w", err)
	}
	return f.SourceFile.ReadAt(p, off)
}

// stoppingAt returns a copy of e whose source files stop reading once ctx
// is done.
func (e *Exporter) stoppingAt(ctx context.Context) *Exporter {
	c := *e
	c.open = func(path string) (SourceFile, error) {
		f, err := e.open(path)
		if err != nil {
			return nil, err
		}
		return stoppingFile{SourceFile: f, ctx: ctx}, nil
	}
	return &c
}
