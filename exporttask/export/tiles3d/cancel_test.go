package tiles3d

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// cancellingOutput is a testout.Dir that cancels the export at its first
// progress report with work done, and counts the reports after it.
type cancellingOutput struct {
	*testout.Dir
	cancel       context.CancelFunc
	cancelled    atomic.Bool
	reportsAfter atomic.Int64
}

func (o *cancellingOutput) Progress(done, total int64) error {
	if o.cancelled.Load() {
		o.reportsAfter.Add(1)
	} else if done > 0 && done < total {
		o.cancelled.Store(true)
		o.cancel()
	}
	return o.Dir.Progress(done, total)
}

// TestCancelMidwayStopsTheExport: a 3D export cancelled at its first
// progress report (the zip's first file written) returns context.Canceled
// without another report (the zip looks at the context at every file)
// and leaves nothing in the output.
func TestCancelMidwayStopsTheExport(t *testing.T) {
	rec, _, _ := quadtreeRecord(t, 3)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	dir := t.TempDir()
	out := &cancellingOutput{Dir: testout.New(dir), cancel: cancel}
	_, err := New(Options{}).Export(ctx, job(t, rec, nil), out)
	require.True(t, out.cancelled.Load(), "the export reported progress midway")
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, export.IsPermanent(err), "%v", err)
	assert.Zero(t, out.reportsAfter.Load())
	assert.Empty(t, files(t, dir))
}
