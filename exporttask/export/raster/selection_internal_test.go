package raster

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIDRangeSearchesTheRowIDs: a run of row ids at a level (the size
// sums of the selection, the copy of part of a GeoPackage) is searched by
// row id, reading the table in its own order. Without the unary + on the
// level, SQLite searched the tile table's unique index for the level and
// looked each row up from there: a selection of 205,166 tiles took 4.4 s
// instead of about 1.
func TestIDRangeSearchesTheRowIDs(t *testing.T) {
	db, err := openWrite(t.Context(), filepath.Join(t.TempDir(), "plan.gpkg"))
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, createGeoPackage(t.Context(), db, tileSet{MinZoom: 0, MaxZoom: 1}))
	rows, err := db.QueryContext(t.Context(), `EXPLAIN QUERY PLAN SELECT length(tile_data) FROM tiles `+idRangeWhere, 1, 100, 3)
	require.NoError(t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
		plan = append(plan, detail)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"SEARCH tiles USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"}, plan, strings.Join(plan, "; "))
}
