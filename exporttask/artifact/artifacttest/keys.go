package artifacttest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// badKeys returns keys refused by every method of every store.
func badKeys() []string {
	return []string{
		"",
		"/1/abs",
		"1/../2/x",
		"..",
		"1/./x",
		"1//x",
		"1/x/",
		`1\x`,
		"1/.hidden",
		"1/x\x00",
		"1/x\n",
		"1/\xff",
		"1/" + strings.Repeat("a", artifactkey.MaxSegmentLen+1),
		strings.Repeat("a/", artifactkey.MaxLen/2) + "a",
	}
}

func testBadKeys(t *testing.T, s artifact.Store) {
	for _, key := range badKeys() {
		w, err := s.Create(t.Context(), key)
		if assert.ErrorIs(t, err, artifact.ErrKey, "create %q", key) {
			assert.Contains(t, err.Error(), "invalid artifact key", "the error says what is wrong")
		} else if w != nil {
			w.Abort()
		}
		o, err := s.Open(t.Context(), key)
		if !assert.ErrorIs(t, err, artifact.ErrKey, "open %q", key) && o != nil {
			o.Close()
		}
		if key == "" {
			continue // the empty prefix lists everything
		}
		_, err = s.List(t.Context(), key+"/")
		assert.ErrorIs(t, err, artifact.ErrKey, "list %q", key+"/")
		assert.ErrorIs(t, s.DeletePrefix(t.Context(), key+"/"), artifact.ErrKey, "delete %q", key+"/")
	}
	assert.Empty(t, keys(t, s, ""), "nothing was written")
}

func testCancelledContext(t *testing.T, s artifact.Store) {
	put(t, s, "40/a", []byte("a"))
	ctx := cancelled(t)
	if w, err := s.Create(ctx, "40/b"); assert.Error(t, err, "create") {
		assert.ErrorIs(t, err, ctx.Err())
	} else {
		w.Abort()
	}
	if o, err := s.Open(ctx, "40/a"); !assert.Error(t, err, "open") {
		o.Close()
	}
	_, err := s.List(ctx, "40/")
	assert.Error(t, err, "list")
	assert.Error(t, s.DeletePrefix(ctx, "40/"), "delete")
	assert.Equal(t, []string{"40/a"}, keys(t, s, ""), "nothing changed")
}
