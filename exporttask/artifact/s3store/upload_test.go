package s3store_test

import (
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
)

// uploads returns the keys of the multipart uploads in progress under the
// store's prefix.
func uploads(t *testing.T, s *s3store.Store) []string {
	t.Helper()
	keys, err := s.Uploads(t.Context(), "")
	require.NoError(t, err)
	return keys
}

func newStore(t *testing.T, srv *s3test.Server, concurrency int) *s3store.Store {
	t.Helper()
	cfg := srv.Config(t)
	cfg.Concurrency = concurrency
	s, err := s3store.New(cfg)
	require.NoError(t, err)
	return s
}

func TestUploadLifecycle(t *testing.T) {
	srv := s3test.Start(t)

	t.Run("BoundedBuffers", func(t *testing.T) {
		s := newStore(t, srv, 2)
		chunk := make([]byte, 1<<20)
		_, _ = rand.Read(chunk)
		const parts = 8 // of MinPartSize
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		w, err := s.Create(t.Context(), "1/big")
		require.NoError(t, err)
		for range parts * s3store.MinPartSize / len(chunk) {
			_, err := w.Write(chunk)
			require.NoError(t, err)
		}
		assert.Equal(t, []string{s.Config().Prefix + "1/big"}, uploads(t, s), "one upload in progress")
		info, err := w.Commit()
		require.NoError(t, err)
		runtime.ReadMemStats(&after)
		assert.EqualValues(t, parts*s3store.MinPartSize, info.Size)
		// Concurrency+1 = 3 part buffers, where buffering the file
		// would take 8; the rest is the SDK's per-request garbage.
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("allocated %d MiB", allocated>>20)
		assert.Less(t, allocated, uint64(5*s3store.MinPartSize), "bytes allocated to upload %d parts", parts)
		assert.Empty(t, uploads(t, s), "no upload left after commit")
	})

	t.Run("AbortAbortsUpload", func(t *testing.T) {
		s := newStore(t, srv, 2)
		w, err := s.Create(t.Context(), "2/x")
		require.NoError(t, err)
		_, err = w.Write(make([]byte, 2*s3store.MinPartSize+10))
		require.NoError(t, err)
		require.NotEmpty(t, uploads(t, s))
		require.NoError(t, w.Abort())
		assert.Empty(t, uploads(t, s), "Abort aborts the multipart upload")
	})

	t.Run("CancelledContextAbortsUpload", func(t *testing.T) {
		s := newStore(t, srv, 2)
		ctx, cancel := context.WithCancel(t.Context())
		w, err := s.Create(ctx, "3/x")
		require.NoError(t, err)
		_, err = w.Write(make([]byte, s3store.MinPartSize+10))
		require.NoError(t, err)
		cancel() // the export's context ends mid-write
		_, err = w.Write(make([]byte, 2*s3store.MinPartSize))
		if err == nil {
			_, err = w.Commit()
		}
		assert.ErrorIs(t, err, context.Canceled, "the write fails with the context's error")
		require.NoError(t, w.Abort())
		assert.Empty(t, uploads(t, s), "the upload is aborted although the context ended")
		assert.Empty(t, list(t, s), "nothing stored")
	})

	t.Run("Presign", func(t *testing.T) {
		s := newStore(t, srv, 2)
		w, err := s.Create(t.Context(), "4/export.gpkg")
		require.NoError(t, err)
		_, err = io.WriteString(w, "geopackage bytes")
		require.NoError(t, err)
		_, err = w.Commit()
		require.NoError(t, err)

		u, err := s.PresignGet(t.Context(), "4/export.gpkg", time.Minute, "export 4.gpkg")
		require.NoError(t, err)
		resp, err := http.Get(u)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "geopackage bytes", string(body), "the URL downloads without credentials")
		assert.Equal(t, `attachment; filename="export 4.gpkg"`, resp.Header.Get("Content-Disposition"))

		_, err = s.PresignGet(t.Context(), "4/export.gpkg", 8*24*time.Hour, "")
		assert.ErrorContains(t, err, "at most 7 days")
		_, err = s.PresignGet(t.Context(), "../x", time.Minute, "")
		assert.ErrorContains(t, err, "invalid artifact key")
	})
}

func list(t *testing.T, s *s3store.Store) []string {
	t.Helper()
	infos, err := s.List(t.Context(), "")
	require.NoError(t, err)
	var keys []string
	for _, i := range infos {
		keys = append(keys, i.Key)
	}
	return keys
}
