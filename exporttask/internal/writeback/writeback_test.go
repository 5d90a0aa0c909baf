package writeback_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/writeback"
)

// TestFollowEndsWithStop: a file that grows past a step is followed until
// stop, which returns once the follower has ended, leaving the file as it
// was written; a file that is not there is not followed.
func TestFollowEndsWithStop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "built")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	stop := writeback.Follow(path)
	chunk := make([]byte, 1<<20)
	for i := range writeback.Step/len(chunk) + 1 {
		chunk[0] = byte(i)
		_, err := f.Write(chunk)
		require.NoError(t, err)
	}
	stop()
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, int64(writeback.Step+len(chunk)), st.Size())

	writeback.Follow(filepath.Join(t.TempDir(), "missing"))()
}
