package artifacttest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

// Run runs the conformance suite, one subtest per behaviour of the
// [artifact.Store] contract. open must return a fresh, empty
// store for the subtest t (register clean-up with t.Cleanup inside open).
func Run(t *testing.T, open func(t *testing.T) artifact.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s artifact.Store)
	}{
		{"WriteRead", testWriteRead},
		{"Empty", testEmpty},
		{"Large", testLarge},
		{"Seek", testSeek},
		{"ServeContentRange", testServeContentRange},
		{"InvisibleBeforeCommit", testInvisibleBeforeCommit},
		{"AbortLeavesNothing", testAbortLeavesNothing},
		{"AbortAfterCommit", testAbortAfterCommit},
		{"WriteAfterCommit", testWriteAfterCommit},
		{"Replace", testReplace},
		{"NotFound", testNotFound},
		{"List", testList},
		{"DeletePrefix", testDeletePrefix},
		{"DeletePrefixUncommitted", testDeletePrefixUncommitted},
		{"BadKeys", testBadKeys},
		{"CancelledContext", testCancelledContext},
		{"ConcurrentWriters", testConcurrentWriters},
		{"ConcurrentSameKey", testConcurrentSameKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			require.NotNil(t, s, "open returned no store")
			tc.fn(t, s)
		})
	}
}

// content returns n bytes that differ with seed and position, so a read
// from the wrong offset or of the wrong file shows.
func content(seed byte, n int) []byte {
	b := make([]byte, n)
	x := uint32(seed)*2654435761 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// put writes data to key in odd-sized chunks and commits.
func put(t *testing.T, s artifact.Store, key string, data []byte) artifact.Info {
	t.Helper()
	w, err := s.Create(t.Context(), key)
	require.NoError(t, err, "create %q", key)
	defer w.Abort()
	writeChunks(t, w, data)
	info, err := w.Commit()
	require.NoError(t, err, "commit %q", key)
	return info
}

// writeChunks writes data in chunks of varying sizes.
func writeChunks(t *testing.T, w io.Writer, data []byte) {
	t.Helper()
	sizes := []int{1, 7, 4096, 100_003, 1 << 20}
	for i := 0; len(data) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(data))
		k, err := w.Write(data[:n])
		require.NoError(t, err, "write")
		require.Equal(t, n, k, "short write")
		data = data[n:]
	}
}

// get opens key and reads it whole.
func get(t *testing.T, s artifact.Store, key string) ([]byte, artifact.Info) {
	t.Helper()
	o, err := s.Open(t.Context(), key)
	require.NoError(t, err, "open %q", key)
	defer o.Close()
	b, err := io.ReadAll(o)
	require.NoError(t, err, "read %q", key)
	return b, o.Info()
}

// keys lists prefix and returns the keys.
func keys(t *testing.T, s artifact.Store, prefix string) []string {
	t.Helper()
	infos, err := s.List(t.Context(), prefix)
	require.NoError(t, err, "list %q", prefix)
	ks := []string{}
	for _, info := range infos {
		ks = append(ks, info.Key)
	}
	return ks
}

// checkInfo asserts what every store must report of a file: key, size,
// a modification time, and the SHA-256 where reported.
func checkInfo(t *testing.T, info artifact.Info, key string, data []byte) {
	t.Helper()
	assert.Equal(t, key, info.Key, "key")
	assert.Equal(t, int64(len(data)), info.Size, "size of %q", key)
	assert.False(t, info.ModTime.IsZero(), "modification time of %q", key)
	if info.SHA256 != "" {
		assert.Equal(t, digest(data), info.SHA256, "SHA-256 of %q", key)
	}
}

func equalBytes(t *testing.T, want, got []byte, msg string) {
	t.Helper()
	if !bytes.Equal(want, got) {
		assert.Fail(t, msg, "got %d bytes (sha256 %s), want %d bytes (sha256 %s)", len(got), digest(got), len(want), digest(want))
	}
}

func cancelled(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx
}
