package artifacttest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

func testSeek(t *testing.T, s artifact.Store) {
	data := content(10, 200_000)
	put(t, s, "10/f", data)
	o, err := s.Open(t.Context(), "10/f")
	require.NoError(t, err)
	defer o.Close()

	read := func(n int) []byte {
		t.Helper()
		b := make([]byte, n)
		k, err := io.ReadFull(o, b)
		require.NoError(t, err)
		return b[:k]
	}
	seek := func(offset int64, whence int, want int64) {
		t.Helper()
		pos, err := o.Seek(offset, whence)
		require.NoError(t, err)
		require.Equal(t, want, pos, "seek(%d, %d)", offset, whence)
	}

	equalBytes(t, data[:100], read(100), "first bytes")
	seek(150_000, io.SeekStart, 150_000)
	equalBytes(t, data[150_000:150_010], read(10), "after SeekStart")
	seek(-20, io.SeekCurrent, 149_990)
	equalBytes(t, data[149_990:150_000], read(10), "after SeekCurrent back")
	seek(-5, io.SeekEnd, int64(len(data))-5)
	rest, err := io.ReadAll(o)
	require.NoError(t, err)
	equalBytes(t, data[len(data)-5:], rest, "after SeekEnd")
	n, err := o.Read(make([]byte, 10))
	assert.Equal(t, 0, n)
	assert.Equal(t, io.EOF, err, "read at the end")

	seek(0, io.SeekEnd, int64(len(data)))
	seek(10, io.SeekEnd, int64(len(data))+10) // past the end is allowed
	n, err = o.Read(make([]byte, 10))
	assert.Equal(t, 0, n)
	assert.Equal(t, io.EOF, err, "read past the end")
	_, err = o.Seek(-1, io.SeekStart)
	assert.Error(t, err, "seek before the start")

	seek(0, io.SeekStart, 0)
	all, err := io.ReadAll(o)
	require.NoError(t, err)
	equalBytes(t, data, all, "whole file after seeking back")
}

// testServeContentRange serves an object with http.ServeContent, as the
// download endpoint does, and checks whole and ranged responses.
func testServeContentRange(t *testing.T, s artifact.Store) {
	data := content(11, 100_000)
	put(t, s, "11/export.gpkg", data)
	tests := []struct {
		rangeHeader string
		status      int
		want        []byte
		contentType string // prefix
	}{
		{"", http.StatusOK, data, ""},
		{"bytes=0-99", http.StatusPartialContent, data[:100], ""},
		{"bytes=50000-50999", http.StatusPartialContent, data[50_000:51_000], ""},
		{"bytes=99990-", http.StatusPartialContent, data[99_990:], ""},
		{"bytes=-10", http.StatusPartialContent, data[len(data)-10:], ""},
		{"bytes=0-9,90000-90009", http.StatusPartialContent, nil, "multipart/byteranges"},
		{"bytes=100000-", http.StatusRequestedRangeNotSatisfiable, nil, ""},
	}
	for _, tc := range tests {
		o, err := s.Open(t.Context(), "11/export.gpkg")
		require.NoError(t, err)
		info := o.Info()
		req := httptest.NewRequest(http.MethodGet, "/x", nil)
		if tc.rangeHeader != "" {
			req.Header.Set("Range", tc.rangeHeader)
		}
		rec := httptest.NewRecorder()
		http.ServeContent(rec, req, "export.gpkg", info.ModTime, o)
		require.NoError(t, o.Close())
		assert.Equal(t, tc.status, rec.Code, "Range %q", tc.rangeHeader)
		if tc.want != nil {
			equalBytes(t, tc.want, rec.Body.Bytes(), "body for Range "+tc.rangeHeader)
		}
		if tc.contentType != "" {
			assert.Contains(t, rec.Header().Get("Content-Type"), tc.contentType, "Range %q", tc.rangeHeader)
			assert.Contains(t, rec.Body.String(), string(data[90_000:90_010]), "second part of Range %q", tc.rangeHeader)
		}
	}
}

func testNotFound(t *testing.T, s artifact.Store) {
	put(t, s, "12/a/b", []byte("x"))
	for _, key := range []string{"12/missing", "12/a", "12/a/b/c", "13/a/b"} {
		o, err := s.Open(t.Context(), key)
		if !assert.ErrorIs(t, err, artifact.ErrNotFound, "open %q", key) && o != nil {
			o.Close()
		}
	}
	infos, err := s.List(t.Context(), "99/")
	assert.NoError(t, err, "listing nothing")
	assert.Empty(t, infos)
	assert.NoError(t, s.DeletePrefix(t.Context(), "99/"), "deleting nothing")
}
