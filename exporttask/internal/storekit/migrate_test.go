package storekit_test

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

func TestLoadMigrations(t *testing.T) {
	fsys := fstest.MapFS{
		"m/0010_later.sql": {Data: []byte("B")},
		"m/0002_first.sql": {Data: []byte("A")},
	}
	ms, err := storekit.LoadMigrations(fsys, "m")
	require.NoError(t, err)
	assert.Equal(t, []storekit.Migration{
		{Version: 2, Name: "0002_first.sql", SQL: "A"},
		{Version: 10, Name: "0010_later.sql", SQL: "B"},
	}, ms)

	for name, fsys := range map[string]fstest.MapFS{
		"no version":   {"m/init.sql": {}},
		"zero version": {"m/0000_init.sql": {}},
		"same version": {"m/01_a.sql": {}, "m/1_b.sql": {}},
	} {
		_, err := storekit.LoadMigrations(fsys, "m")
		assert.Error(t, err, name)
	}
	_, err = storekit.LoadMigrations(fstest.MapFS{}, "m")
	assert.ErrorContains(t, err, "reading the migrations")
}

// fakeSchema is a Migrator that keeps the applied versions in memory and
// can fail the statements of one migration.
type fakeSchema struct {
	applied map[int]bool
	ran     []string
	fail    string
}

func (f *fakeSchema) Init(context.Context) error { return nil }

func (f *fakeSchema) InTx(ctx context.Context, fn func(storekit.MigrationTx) error) error {
	return fn(f)
}

func (f *fakeSchema) Applied(_ context.Context, v int) (bool, error) { return f.applied[v], nil }

func (f *fakeSchema) Exec(_ context.Context, sql string) error {
	if sql == f.fail {
		return errors.New("syntax error")
	}
	f.ran = append(f.ran, sql)
	return nil
}

func (f *fakeSchema) Record(_ context.Context, m storekit.Migration) error {
	f.applied[m.Version] = true
	return nil
}

func TestMigrate(t *testing.T) {
	ms := []storekit.Migration{{Version: 1, Name: "0001_a.sql", SQL: "A"}, {Version: 2, Name: "0002_b.sql", SQL: "B"}}
	db := &fakeSchema{applied: map[int]bool{1: true}}
	require.NoError(t, storekit.Migrate(t.Context(), db, ms))
	assert.Equal(t, []string{"B"}, db.ran, "only the migrations not applied yet run")
	require.NoError(t, storekit.Migrate(t.Context(), db, ms))
	assert.Equal(t, []string{"B"}, db.ran, "a second run applies nothing")

	db = &fakeSchema{applied: map[int]bool{}, fail: "A"}
	err := storekit.Migrate(t.Context(), db, ms)
	assert.ErrorContains(t, err, "migrate 0001_a.sql: syntax error")
	assert.Empty(t, db.ran, "a failed migration stops the run")
}
