package exporttask_test

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask"
)

func TestStorageFull(t *testing.T) {
	assert.NoError(t, exporttask.StorageFull(nil))
	cause := &fs.PathError{Op: "write", Path: "/data/x", Err: syscall.ENOSPC}
	err := fmt.Errorf("sqlite: create task: %w", exporttask.StorageFull(cause))
	assert.ErrorIs(t, err, exporttask.ErrStorageFull)
	assert.ErrorIs(t, err, syscall.ENOSPC, "the cause is still found")
	var pe *fs.PathError
	assert.True(t, errors.As(err, &pe))
	assert.Equal(t, "sqlite: create task: write /data/x: no space left on device", err.Error(), "the text is the cause's")
	marked := exporttask.StorageFull(cause)
	assert.Same(t, marked, exporttask.StorageFull(marked), "marked once")
	assert.NotErrorIs(t, cause, exporttask.ErrStorageFull)
}
