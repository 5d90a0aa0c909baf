package tiles3d

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/pacetest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// TestExportTakesTurns: a 3D export with a pacer in its context takes a
// turn at CPU work per zip entry, per mesh decoded and per thumbnail, and
// ends each one; a pacer that refuses a turn midway fails the export with
// its error.
func TestExportTakesTurns(t *testing.T) {
	rec := demoRecord(t)
	j := job(t, rec, nil)
	p := pacetest.New()
	_, err := New(Options{}).Export(p.Context(t.Context()), j, testout.New(t.TempDir()))
	require.NoError(t, err)
	plan, err := New(Options{}).plan(t.Context(), j)
	require.NoError(t, err)
	entries := len(plan.sel.jsons) + len(plan.sel.files)
	assert.GreaterOrEqual(t, p.Turns(), entries+3, "turns taken for %d zip entries and 3 thumbnails", entries)
	assert.Zero(t, p.Held(), "turns not ended")

	refusing := pacetest.Refusing(p.Turns() / 2)
	_, err = New(Options{}).Export(refusing.Context(t.Context()), j, testout.New(t.TempDir()))
	assert.ErrorIs(t, err, pacetest.ErrRefused)
	assert.Zero(t, refusing.Held(), "turns not ended after the refusal")
}
