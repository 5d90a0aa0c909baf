package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the "sqlite" driver

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

// contender is one way of copying the tiles: cmd returns the command that
// copies them into the directory out.
type contender struct {
	name string
	cmd  func(out string) *exec.Cmd
}

// childCmd runs this program as the child contender name, exporting roi
// ("" for the whole record).
func childCmd(self, name, work, roi string) func(string) *exec.Cmd {
	return func(out string) *exec.Cmd {
		cmd := exec.Command(self, "-child", name, work, out)
		cmd.Env = append(os.Environ(), roiEnv+"="+roi)
		return cmd
	}
}

// tunedPragmas are the settings of the export's scratch GeoPackage (its
// pages are SQLite's default, 4 KiB).
const tunedPragmas = "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;\n"

// tilesDDL is the tile table of an export.
const tilesDDL = `CREATE TABLE tiles (id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL,
	tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL,
	UNIQUE (zoom_level, tile_column, tile_row))`

// copyAll copies every tile row of the attached source, in one
// transaction (one statement).
const copyAll = `INSERT INTO main.tiles (zoom_level, tile_column, tile_row, tile_data)
	SELECT zoom_level, tile_column, tile_row, tile_data FROM src.tiles`

// sqlite3Cmd runs the sqlite3 shell on a new file in out: pragmas, the
// tile table, and one INSERT … SELECT of the rows of src that where
// selects ("": every row).
func sqlite3Cmd(sqlite3, src, pragmas, where string) func(string) *exec.Cmd {
	return func(out string) *exec.Cmd {
		cmd := exec.Command(sqlite3, "-bail", filepath.Join(out, "copy.sqlite"))
		cmd.Stdin = strings.NewReader(pragmas + tilesDDL + ";\n" +
			"ATTACH DATABASE '" + strings.ReplaceAll(src, "'", "''") + "' AS src;\n" + copyAll + where + ";\n")
		return cmd
	}
}

// findSQLite3 finds the sqlite3 shell.
func findSQLite3() (string, error) {
	p, err := exec.LookPath("sqlite3")
	if err != nil {
		return "", fmt.Errorf("the baseline needs the sqlite3 shell (apt-get install sqlite3): %w", err)
	}
	return p, nil
}

// saveRecord and loadRecord pass a registered record to a child.
func saveRecord(work, name string, rec catalog.Record) error {
	b, err := json.Marshal(struct {
		catalog.Record
		Location string `json:"location"`
	}{rec, rec.Location})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(work, name+".json"), b, 0o644)
}

func loadRecord(work, name string) (catalog.Record, error) {
	b, err := os.ReadFile(filepath.Join(work, name+".json"))
	if err != nil {
		return catalog.Record{}, err
	}
	var r struct {
		catalog.Record
		Location string `json:"location"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return catalog.Record{}, err
	}
	r.Record.Location = r.Location
	return r.Record, nil
}

// runExport exports the whole record into out, building the GeoPackage in
// scratch.
func runExport(ctx context.Context, rec catalog.Record, out export.Output, scratch string) error {
	roi, err := roiFromEnv()
	if err != nil {
		return err
	}
	j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi})
	if err != nil {
		return err
	}
	arts, err := raster.New(raster.Options{TempDir: scratch}).Export(ctx, j, out)
	if err != nil {
		return err
	}
	if len(arts) == 0 {
		return errors.New("no artifacts")
	}
	return nil
}

// copySQL copies every tile row of src into a new file with one
// INSERT … SELECT over an attached database, through modernc.org/sqlite,
// with the export's settings.
func copySQL(ctx context.Context, src, dir string) error {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "copy-sql.sqlite"))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{tunedPragmas, tilesDDL, `ATTACH DATABASE '` + strings.ReplaceAll(src, "'", "''") + `' AS src`, copyAll} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%.40s…: %w", s, err)
		}
	}
	return db.Close()
}

// storeOutput is an export.Output on the file artifact store the
// server uses (package filestore): its writers take a finished file by
// moving it (a rename, hashed once) and sync every file at commit.
type storeOutput struct{ store *filestore.Store }

func (o storeOutput) Progress(done, total int64) error { return nil }

func (o storeOutput) Create(ctx context.Context, name string) (artifact.Writer, error) {
	return o.store.Create(ctx, "task/"+name)
}

// dirOutput is an export.Output on a directory, or with discard one
// that drops every byte.
type dirOutput struct {
	dir     string
	discard bool
}

func (o *dirOutput) Progress(done, total int64) error { return nil }

func (o *dirOutput) Create(_ context.Context, name string) (artifact.Writer, error) {
	if o.discard {
		return &discardWriter{}, nil
	}
	f, err := os.CreateTemp(o.dir, ".partial-*")
	if err != nil {
		return nil, err
	}
	return &fileWriter{f: f, final: filepath.Join(o.dir, name)}, nil
}

type fileWriter struct {
	f     *os.File
	final string
	n     int64
}

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *fileWriter) Commit() (artifact.Info, error) {
	if err := w.f.Close(); err != nil {
		return artifact.Info{}, err
	}
	if err := os.Rename(w.f.Name(), w.final); err != nil {
		return artifact.Info{}, err
	}
	return artifact.Info{Key: filepath.Base(w.final), Size: w.n}, nil
}

func (w *fileWriter) Abort() error {
	w.f.Close()
	return os.Remove(w.f.Name())
}

// discardWriter counts what it is given and keeps none of it.
type discardWriter struct{ n int64 }

func (w *discardWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

func (w *discardWriter) Commit() (artifact.Info, error) {
	return artifact.Info{Size: w.n}, nil
}

func (w *discardWriter) Abort() error { return nil }
