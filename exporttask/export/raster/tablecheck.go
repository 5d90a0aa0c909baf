package raster

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	sqlite3 "modernc.org/sqlite/lib"
)

// inspectTimeout bounds the SQL work of inspecting a GeoPackage at catalog
// add: grouping the tile table's index by level reads the index once, which
// takes seconds even for a source of millions of tiles, so a read that
// lasts longer comes from a damaged or hostile file.
const inspectTimeout = 5 * time.Minute

// tileColumns are the columns of a GeoPackage tile table that an export
// reads.
var tileColumns = []string{"zoom_level", "tile_column", "tile_row", "tile_data"}

// requireTable checks that name is a stored table of the database's main
// schema: not a view (whose SELECT can run any query, without end), not a
// virtual table, and with none of cols computed (a generated column can
// make a gigabyte blob out of one row). Reading such a table costs what
// its stored rows cost, nothing more. With cols (a tile table), it must
// also have row ids, as GeoPackage tile tables do (id INTEGER PRIMARY
// KEY), since an export reads its tiles by row id.
func requireTable(ctx context.Context, db *sql.DB, name string, cols ...string) error {
	var typ, ddl sql.NullString
	err := db.QueryRowContext(ctx, `SELECT type, sql FROM sqlite_master
		WHERE name = ? COLLATE NOCASE AND type IN ('table', 'view')`, name).Scan(&typ, &ddl)
	if errors.Is(err, sql.ErrNoRows) {
		return &badSource{fmt.Sprintf("the GeoPackage has no table %q", name)}
	}
	if err != nil {
		return err
	}
	if typ.String == "view" {
		return &badSource{fmt.Sprintf("%q is a view, not a table (a GeoPackage source must store its tiles "+
			"and metadata in tables)", name)}
	}
	if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(ddl.String)), "CREATE VIRTUAL") {
		return &badSource{fmt.Sprintf("%q is a virtual table (a GeoPackage source must store its tiles "+
			"and metadata in tables)", name)}
	}
	if len(cols) == 0 {
		return nil
	}
	// A tile table is read by row id: it must have them, under that name.
	var withoutRowid bool
	if err := db.QueryRowContext(ctx, `SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE`, name).Scan(&withoutRowid); err != nil {
		return err
	}
	if withoutRowid {
		return &badSource{fmt.Sprintf("table %q is a WITHOUT ROWID table, which a GeoPackage tile table is not", name)}
	}
	rows, err := db.QueryContext(ctx, `SELECT name, hidden FROM pragma_table_xinfo(?, 'main')`, name)
	if err != nil {
		return err
	}
	defer rows.Close()
	stored := map[string]bool{}
	for rows.Next() {
		var col string
		var hidden int
		if err := rows.Scan(&col, &hidden); err != nil {
			return err
		}
		// hidden: 0 a plain column, 2 a generated column computed on
		// each read, 3 one computed on write and stored.
		stored[strings.ToLower(col)] = hidden == 0 || hidden == 3
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if _, found := stored["rowid"]; found {
		return &badSource{fmt.Sprintf("table %q has a column named rowid, which a GeoPackage tile table has not", name)}
	}
	for _, c := range cols {
		ok, found := stored[c]
		if !found {
			return &badSource{fmt.Sprintf("table %q has no column %s", name, c)}
		}
		if !ok {
			return &badSource{fmt.Sprintf("column %s of table %q is computed on each read, not stored", c, name)}
		}
	}
	return nil
}

// badSource is what makes a source unfit for export, in words fit for the
// task's errorReason: no server path, no Go type.
type badSource struct{ problem string }

func (e *badSource) Error() string { return e.problem }

// isDamaged reports whether err is SQLite finding a database file damaged:
// malformed pages, or not a database at all.
func isDamaged(err error) bool {
	var se interface{ Code() int } // the driver's *sqlite.Error, or a blob copy's *sqliteError
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}
