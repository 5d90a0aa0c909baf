package cog

import (
	"context"
	"fmt"
	"io"
	"runtime"
)

// DefaultMemoryBudget is the working memory Write allows itself when
// Options.MemoryBudget is 0.
const DefaultMemoryBudget = 128 << 20

// Options tune [WriteWith].
type Options struct {
	// ScratchDir holds the scratch files; "" means os.TempDir().
	ScratchDir string
	// MemoryBudget bounds the bytes the writer allocates for its buffers
	// (see [Memory]); 0 means DefaultMemoryBudget. An image whose rows
	// alone would not fit is refused before anything is written.
	MemoryBudget int64
	// Workers is the number of goroutines compressing tiles; 0 means
	// GOMAXPROCS.
	Workers int
	// Progress, when set, is told the rows read so far after every row of
	// tiles; its error stops the write and is returned.
	Progress func(rowsDone int) error
	// Turn, when set, waits for a turn at a chunk of CPU work and returns
	// the function that ends it (export.Pace): each tile is
	// compressed in a turn of its own, and each row waits for a turn
	// before it is read, ending it at once (the row's work waits for the
	// compressing goroutines, which must not wait for a turn it holds).
	// Its error stops the write and is returned.
	Turn func() (done func(), err error)
}

func (o Options) budget() int64 {
	if o.MemoryBudget > 0 {
		return o.MemoryBudget
	}
	return DefaultMemoryBudget
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return max(1, runtime.GOMAXPROCS(0))
}

// Write writes img as a Cloud Optimized GeoTIFF to w and returns the bytes
// written: tiled, Deflate with a predictor, overviews down to one tile, and
// GDAL's COG layout. It is [WriteWith] with the default memory budget and
// workers.
func Write(ctx context.Context, w io.Writer, img Image, rows Rows, scratchDir string, progress func(rowsDone int) error) (int64, error) {
	return WriteWith(ctx, w, img, rows, Options{ScratchDir: scratchDir, Progress: progress})
}

// WriteWith writes img as a Cloud Optimized GeoTIFF to w and returns the
// bytes written. The tiles are compressed, on opts.Workers goroutines,
// into scratch files as the rows arrive; then the header, every IFD and
// the tiles go to w in one pass. The scratch files are removed before
// WriteWith returns. An error from rows or opts.Progress, a failure to
// compress, or ctx's end stops the write and is returned. The buffers it
// allocates stay within opts.MemoryBudget (see [Memory]).
func WriteWith(ctx context.Context, w io.Writer, img Image, rows Rows, opts Options) (int64, error) {
	return write(ctx, w, img, rows, opts, false)
}

// write is WriteWith with BigTIFF forced when big is set (for tests;
// WriteWith chooses BigTIFF only past 4 GiB).
func write(ctx context.Context, w io.Writer, img Image, rows Rows, opts Options, big bool) (n int64, err error) {
	if err := img.Validate(); err != nil {
		return 0, err
	}
	plan, err := planMemory(img, opts.budget(), opts.workers())
	if err != nil {
		return 0, err
	}
	p, err := newPyramid(img, opts.ScratchDir, plan, opts.Turn)
	if err != nil {
		return 0, err
	}
	defer func() {
		if rerr := p.close(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	buf := make([]byte, img.Width*img.BitsPerSample/8)
	bs := img.blockSize()
	for y := range img.Height {
		if err := ctx.Err(); err != nil {
			return 0, fmt.Errorf("cog: stopped at row %d: %w", y, err)
		}
		if opts.Turn != nil {
			done, err := opts.Turn()
			if err != nil {
				return 0, fmt.Errorf("cog: row %d: %w", y, err)
			}
			done()
		}
		if err := rows(y, buf); err != nil {
			return 0, fmt.Errorf("cog: row %d: %w", y, err)
		}
		if err := p.levels[0].addRow(y, buf); err != nil {
			return 0, err
		}
		if (y+1)%bs == 0 || y+1 == img.Height {
			if err := p.failed(); err != nil {
				return 0, err
			}
			if opts.Progress != nil {
				if err := opts.Progress(y + 1); err != nil {
					return 0, fmt.Errorf("cog: progress at row %d: %w", y+1, err)
				}
			}
		}
	}
	if err := p.finish(); err != nil {
		return 0, err
	}
	return p.writeTo(ctx, w, big)
}
