package worker

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
)

// TestProgressCoversStoring: the export's own progress takes the task to
// 90%; the bytes stored after it, written or taken as a whole file, take
// it on towards 100% against the estimated size (99% at most until the
// task is COMPLETED), each percent reported once.
func TestProgressCoversStoring(t *testing.T) {
	ctx := context.Background()
	st, err := filestore.Open(ctx, t.TempDir())
	require.NoError(t, err)
	var got []int
	o := &taskOutput{store: st, taskID: 7, expected: 1000, report: func(p int) error {
		got = append(got, p)
		return nil
	}}
	require.NoError(t, o.Progress(50, 100))
	require.NoError(t, o.Progress(100, 100))
	assert.Equal(t, []int{45, 90}, got)

	w, err := o.Create(ctx, "a.tif")
	require.NoError(t, err)
	for range 5 {
		_, err := w.Write(make([]byte, 100))
		require.NoError(t, err)
	}
	_, err = w.Commit()
	require.NoError(t, err)
	assert.Equal(t, []int{45, 90, 91, 92, 93, 94, 95}, got, "each 100 bytes of 1000 is a percent of the last 10")

	w, err = o.Create(ctx, "b.gpkg")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "built.gpkg")
	require.NoError(t, os.WriteFile(path, make([]byte, 800), 0o600))
	taker, ok := w.(interface {
		TakeFile(string) (int64, string, error)
	})
	require.True(t, ok, "the writer takes whole files")
	n, _, err := taker.TakeFile(path)
	require.NoError(t, err)
	assert.EqualValues(t, 800, n)
	_, err = w.Commit()
	require.NoError(t, err)
	assert.Equal(t, []int{45, 90, 91, 92, 93, 94, 95, 99}, got, "a file taken whole counts its bytes; the task stays below 100 until COMPLETED")
}

// TestStoringStopsWhenTheLeaseIsLost: a write whose progress report fails
// (the task aborted, its lease lost) fails with that error.
func TestStoringStopsWhenTheLeaseIsLost(t *testing.T) {
	ctx := context.Background()
	st, err := filestore.Open(ctx, t.TempDir())
	require.NoError(t, err)
	lost := assert.AnError
	o := &taskOutput{store: st, taskID: 8, expected: 100, report: func(int) error { return lost }}
	w, err := o.Create(ctx, "a.tif")
	require.NoError(t, err)
	defer w.Abort()
	_, err = w.Write(make([]byte, 50))
	assert.ErrorIs(t, err, lost)
}
