package server_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertProblemShape checks the members of a problem body: the five every
// problem has, the optional ones it may have, and nothing else; each entry
// of errors has a message and exactly one of pointer and parameter.
func assertProblemShape(t *testing.T, body []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &m), "body: %s", body)
	for _, k := range []string{"type", "title", "status", "detail", "message", "instance", "requestId"} {
		assert.Contains(t, m, k, "body: %s", body)
	}
	optional := map[string]bool{"type": true, "title": true, "status": true, "detail": true, "message": true,
		"instance": true, "requestId": true, "errors": true, "quotaBytes": true, "remainingBytes": true}
	for k := range m {
		assert.True(t, optional[k], "unexpected member %q in %s", k, body)
	}
	if raw, ok := m["errors"]; ok {
		var errs []map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &errs))
		for _, e := range errs {
			_, ptr := e["pointer"]
			_, param := e["parameter"]
			assert.True(t, ptr != param, "one of pointer and parameter in %s", raw)
			assert.Contains(t, e, "message")
			assert.Len(t, e, 2, "%s", raw)
		}
	}
}
