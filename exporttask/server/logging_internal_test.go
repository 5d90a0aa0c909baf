package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestIDHandler(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(requestIDHandler{slog.NewJSONHandler(&buf, nil)})
	withID := context.WithValue(context.Background(), requestIDKey{}, "abc123")

	logger.InfoContext(withID, "plain")
	logger.With("component", "x").InfoContext(withID, "with attrs")
	logger.WithGroup("g").InfoContext(withID, "in a group", "k", 1)
	logger.InfoContext(context.Background(), "no request")
	logger.Info("no context")

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 5)
	want := []any{"abc123", "abc123", nil, nil, nil}
	for i, l := range lines {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &rec))
		if i == 2 { // inside the group the id is the group's member
			assert.Equal(t, "abc123", rec["g"].(map[string]any)["requestId"], l)
			continue
		}
		assert.Equal(t, want[i], rec["requestId"], l)
	}
	assert.Contains(t, lines[1], `"component":"x"`)
}
