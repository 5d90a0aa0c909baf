package exporttask_test

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// docTable reads the state machine table of Transition's documentation
// (status.go): from status, to status, event.
func docTable(t *testing.T) map[[2]exporttask.Status]exporttask.Event {
	t.Helper()
	f, err := os.Open("status.go")
	require.NoError(t, err)
	defer f.Close()
	table := make(map[[2]exporttask.Status]exporttask.Event)
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(strings.TrimPrefix(sc.Text(), "//"))
		switch {
		case len(fields) == 3 && fields[0] == "from" && fields[1] == "to" && fields[2] == "event":
			in = true
		case in && len(fields) == 3:
			key := [2]exporttask.Status{exporttask.Status(fields[0]), exporttask.Status(fields[1])}
			require.NotContains(t, table, key, "row %v twice", key)
			table[key] = exporttask.Event(fields[2])
		case in:
			require.NoError(t, sc.Err())
			return table
		}
	}
	require.NoError(t, sc.Err())
	require.True(t, in, "no state machine table in status.go")
	return table
}

// TestTransitionMatchesTheDocTable tries every pair of statuses: the legal
// ones are exactly the rows of the documented table, with their events.
func TestTransitionMatchesTheDocTable(t *testing.T) {
	table := docTable(t)
	require.Len(t, table, 16)
	for _, from := range exporttask.Statuses() {
		for _, to := range exporttask.Statuses() {
			ev, err := exporttask.Transition(from, to)
			want, legal := table[[2]exporttask.Status{from, to}]
			if legal {
				assert.NoError(t, err, "%s -> %s", from, to)
				assert.Equal(t, want, ev, "%s -> %s", from, to)
				continue
			}
			assert.Empty(t, ev, "%s -> %s", from, to)
			var te *exporttask.TransitionError
			require.ErrorAs(t, err, &te, "%s -> %s must be refused", from, to)
			assert.Equal(t, exporttask.TransitionError{From: from, To: to}, *te)
			assert.ErrorIs(t, err, exporttask.ErrInvalidTransition)
		}
	}
}

func TestTransition(t *testing.T) {
	tests := []struct {
		from, to exporttask.Status
		want     exporttask.Event // empty: refused
	}{
		{exporttask.StatusPending, exporttask.StatusInProgress, exporttask.EventStarted},
		{exporttask.StatusPending, exporttask.StatusAborted, exporttask.EventAborted},
		{exporttask.StatusInProgress, exporttask.StatusCompleted, exporttask.EventCompleted},
		{exporttask.StatusInProgress, exporttask.StatusPaused, exporttask.EventPaused},
		{exporttask.StatusPaused, exporttask.StatusInProgress, exporttask.EventInProgress},
		{exporttask.StatusCompleted, exporttask.StatusExpired, exporttask.EventExpired},
		{exporttask.StatusExpired, exporttask.StatusArchived, exporttask.EventArchived},
		{exporttask.StatusPending, exporttask.StatusCompleted, ""},
		{exporttask.StatusPending, exporttask.StatusPending, ""},
		{exporttask.StatusInProgress, exporttask.StatusInProgress, ""},
		{exporttask.StatusPaused, exporttask.StatusCompleted, ""},
		{exporttask.StatusCompleted, exporttask.StatusAborted, ""},
		{exporttask.StatusFailed, exporttask.StatusInProgress, ""},
		{exporttask.StatusAborted, exporttask.StatusPending, ""},
		{exporttask.StatusExpired, exporttask.StatusCompleted, ""},
		{exporttask.StatusArchived, exporttask.StatusExpired, ""},
		{"BOGUS", exporttask.StatusPending, ""},
		{exporttask.StatusPending, "BOGUS", ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.from)+"->"+string(tt.to), func(t *testing.T) {
			ev, err := exporttask.Transition(tt.from, tt.to)
			if tt.want == "" {
				require.Error(t, err)
				assert.True(t, errors.Is(err, exporttask.ErrInvalidTransition))
				assert.Equal(t, "exporttask: a task cannot move from "+string(tt.from)+" to "+string(tt.to), err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, ev)
		})
	}
}

// TestFinalStatuses checks the documented rules: a final status cannot
// move to ABORTED, a non-final one can, and ARCHIVED leads nowhere.
func TestFinalStatuses(t *testing.T) {
	for _, s := range exporttask.Statuses() {
		assert.True(t, s.Valid(), s)
		_, err := exporttask.Transition(s, exporttask.StatusAborted)
		assert.Equal(t, s.Final(), err != nil, "%s: final %v, abortable %v", s, s.Final(), err == nil)
		_, err = exporttask.Transition(exporttask.StatusArchived, s)
		assert.Error(t, err, "ARCHIVED -> %s", s)
	}
	assert.False(t, exporttask.Status("DONE").Valid())
}
