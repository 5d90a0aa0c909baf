package exporttask_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestNumbersSurviveTheStore creates, through the SQLite store, two tasks
// whose parameters differ only past float64 precision: they are two tasks,
// not one merged, and each reads back with its own number.
func TestNumbersSurviveTheStore(t *testing.T) {
	db, err := sqlite.Open(t.Context(), sqlite.Memory)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, db.Close()) })

	create := func(n string) exporttask.Task {
		t.Helper()
		req, err := exporttask.DecodeCreateRequest(strings.NewReader(with(`"parameters": {"seed": ` + n + `}`)))
		require.NoError(t, err)
		id, err := taskstore.Identify(req, "")
		require.NoError(t, err)
		task, replayed, err := db.Create(t.Context(), taskstore.CreateParams{
			Customer: "acme", Request: req, Identity: id, Now: time.Now(),
		})
		require.NoError(t, err)
		assert.False(t, replayed, "%s is a request of its own", n)
		return task
	}
	a := create("9007199254740993")
	b := create("9007199254740992")
	require.NotEqual(t, a.ID, b.ID, "requests that differ only past float64 precision are not merged")

	for id, want := range map[int64]string{a.ID: "9007199254740993", b.ID: "9007199254740992"} {
		got, err := db.Get(t.Context(), "acme", id)
		require.NoError(t, err)
		out, err := json.Marshal(got)
		require.NoError(t, err)
		assert.Contains(t, string(out), `"parameters":{"seed":`+want+`}`)
	}
}
