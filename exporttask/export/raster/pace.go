package raster

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask/export"
)

// pacedCopy runs run, the copy of a pyramid's tiles into the GeoPackage,
// in turns at CPU work (see export.Pace): a turn is taken before the
// copy starts and renewed at each of its progress reports (about every
// hundredth of the tiles, see progressSteps), so each run of copied rows
// between two reports is one chunk of work, and a large export yields at
// those boundaries while small ones run. The progress itself (a write to
// the task store) is made between turns. run must report progress
// through the Output it is given and must not wait for another chunk of
// work (the thumbnails' goroutine takes turns of its own).
func pacedCopy(ctx context.Context, out export.Output, run func(export.Output) error) error {
	p := &pacedOutput{Output: out, ctx: ctx}
	if err := p.take(); err != nil {
		return err
	}
	defer p.end()
	return run(p)
}

// pacedOutput is an Output whose Progress ends the turn held and takes
// the next.
type pacedOutput struct {
	export.Output
	ctx  context.Context
	done func() // ends the turn held; nil when none is
}

func (p *pacedOutput) take() error {
	done, err := export.Pace(p.ctx)
	if err != nil {
		return err
	}
	p.done = done
	return nil
}

func (p *pacedOutput) end() {
	if p.done != nil {
		p.done()
		p.done = nil
	}
}

// Progress reports between two turns.
func (p *pacedOutput) Progress(done, total int64) error {
	p.end()
	if err := p.Output.Progress(done, total); err != nil {
		return err
	}
	return p.take()
}
