package exportserver

import (
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// addRaster registers src as a RASTER record of cat and returns it.
func addRaster(t *testing.T, cat, src string) catalog.Record {
	t.Helper()
	code, out, errOut := runCatalog(t, nil, "add", "-catalog", cat, "-domain", "RASTER", src)
	require.Equal(t, ExitOK, code, errOut)
	var rec catalog.Record
	require.NoError(t, json.Unmarshal([]byte(out), &rec))
	require.NotEmpty(t, rec.Source.Content, "the record keeps a content fingerprint")
	require.NotEmpty(t, rec.Source.Quick)
	return rec
}

// verifyLines runs catalog verify and returns its exit status and its
// lines keyed by record id.
func verifyLines(t *testing.T, cat string, ids ...string) (int, map[string]string, string) {
	t.Helper()
	code, out, errOut := runCatalog(t, nil, append([]string{"verify", "-catalog", cat}, ids...)...)
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if id, rest, ok := strings.Cut(l, " "); ok {
			lines[id] = rest
		}
	}
	return code, lines, errOut
}

// TestCatalogVerify: verify prints each record as ok, refreshed (a touch:
// the record takes the new time), changed (a rewrite, even one keeping
// size and modification time) or missing, with the command that
// registers it again, and exits 1 when any is changed or missing.
func TestCatalogVerify(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "cat")
	touched, rewritten, gone := rasterSource(t), rasterSource(t), rasterSource(t)
	recT, recR, recG := addRaster(t, cat, touched), addRaster(t, cat, rewritten), addRaster(t, cat, gone)

	code, lines, errOut := verifyLines(t, cat)
	require.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, map[string]string{recT.ID: "ok", recR.ID: "ok", recG.ID: "ok"}, lines)

	// A touch: the same content; the record takes the new time.
	later := recT.Source.ModTime.Add(time.Hour)
	require.NoError(t, os.Chtimes(touched, later, later))
	// Other data in the same number of pages, the time set back.
	db, err := sql.Open("sqlite", rewritten)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE gpkg_contents SET description = upper(description)`)
	require.NoError(t, errors.Join(err, db.Close()))
	require.NoError(t, os.Chtimes(rewritten, recR.Source.ModTime, recR.Source.ModTime))
	st, err := os.Stat(rewritten)
	require.NoError(t, err)
	require.Equal(t, recR.Source.Size, st.Size())
	require.NoError(t, os.Remove(gone))

	code, lines, errOut = verifyLines(t, cat)
	assert.Equal(t, ExitFailed, code)
	assert.Contains(t, errOut, "2 of 3 records changed or missing")
	assert.True(t, strings.HasPrefix(lines[recT.ID], "refreshed: "+touched+": "), lines[recT.ID])
	assert.Equal(t, "changed: "+rewritten+": its content differs from that registered, with the same size and modification time; "+
		"register it again with `server catalog add -domain RASTER -id "+recR.ID+" -table tiles -replace "+rewritten+"`", lines[recR.ID])
	assert.Equal(t, "missing: "+gone+": does not exist; if it moved, register it again from where it is with "+
		"`server catalog add -domain RASTER -id "+recG.ID+" -table tiles -replace "+gone+"`", lines[recG.ID])
	changed := lines[recR.ID]

	// The touched record now holds the new time: ok, and usable.
	c, err := catalog.Open(cat)
	require.NoError(t, err)
	stored, err := c.Record(t.Context(), recT.ID)
	require.NoError(t, err)
	assert.True(t, stored.Source.ModTime.Equal(later))
	assert.Equal(t, recT.Source.Version(), stored.Source.Version(), "the same version: the same exports")
	_, err = export.SourcePath(stored, "")
	require.NoError(t, err)
	code, lines, errOut = verifyLines(t, cat, strings.ToUpper(recT.ID))
	assert.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, map[string]string{recT.ID: "ok"}, lines)

	// The suggested command, run, makes the rewritten record ok again.
	fix := changed[strings.Index(changed, "`")+1 : strings.LastIndex(changed, "`")]
	args := strings.Fields(strings.TrimPrefix(fix, catalog.CommandName+" "))
	code, _, errOut = runCatalog(t, nil, append([]string{args[0], "-catalog", cat}, args[1:]...)...)
	require.Equal(t, ExitOK, code, errOut)
	code, lines, errOut = verifyLines(t, cat, recR.ID)
	assert.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, map[string]string{recR.ID: "ok"}, lines)

	// An unknown id: exit 1, named.
	const unknown = "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05"
	code, _, errOut = verifyLines(t, cat, unknown)
	assert.Equal(t, ExitFailed, code)
	assert.Contains(t, errOut, unknown)
	code, _, errOut = verifyLines(t, cat, "nope")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errOut, `"nope" is not a UUID`)
}

// TestSourcePathAcceptsATouch: a create (export.SourcePath) after a touch
// of the source is accepted and refreshes the record; after a rewrite of
// the header keeping size and time, it fails naming the command.
func TestSourcePathAcceptsATouch(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "cat")
	src := rasterSource(t)
	rec := addRaster(t, cat, src)
	c, err := catalog.Open(cat)
	require.NoError(t, err)
	stored, err := c.Record(t.Context(), rec.ID)
	require.NoError(t, err)

	later := rec.Source.ModTime.Add(time.Hour)
	require.NoError(t, os.Chtimes(src, later, later))
	p, err := export.SourcePath(stored, "")
	require.NoError(t, err)
	assert.Equal(t, src, p)
	refreshed, err := c.Record(t.Context(), rec.ID)
	require.NoError(t, err)
	assert.True(t, refreshed.Source.ModTime.Equal(later), "the record takes the new time")

	b, err := os.ReadFile(src)
	require.NoError(t, err)
	b[200] ^= 0xff // page 1: the schema
	require.NoError(t, os.WriteFile(src, b, 0o644))
	require.NoError(t, os.Chtimes(src, later, later))
	_, err = export.SourcePath(refreshed, "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "changed after it was registered")
	assert.Contains(t, err.Error(), "`server catalog add -domain RASTER -id "+rec.ID+" -table tiles -replace "+src+"`")
}
