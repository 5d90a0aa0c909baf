package exportserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
)

// artifactsDir is the name of the default artifact directory.
const artifactsDir = "exporttask-artifacts"

// openArtifacts opens the artifact store cfg names (see Config.Artifacts),
// reading S3 settings from the environment through getenv. It returns
// where the files go, for the banner.
func openArtifacts(ctx context.Context, cfg Config, getenv func(string) string) (artifact.Store, string, error) {
	where := cfg.Artifacts
	if strings.HasPrefix(where, "s3://") {
		sc, err := s3store.ConfigFromEnv(where, getenv)
		if err != nil {
			return nil, "", fmt.Errorf("-artifacts: %w", err)
		}
		sc.PathStyle = sc.PathStyle || cfg.S3PathStyle
		st, err := s3store.New(sc)
		if err != nil {
			return nil, "", fmt.Errorf("-artifacts: %w", err)
		}
		return st, where, nil
	}
	if where == "" {
		where = artifactsDir
		if isSQLiteFile(cfg.DB) {
			where = filepath.Join(filepath.Dir(cfg.DB), artifactsDir)
		}
	}
	if err := os.MkdirAll(where, 0o755); err != nil {
		return nil, "", fmt.Errorf("-artifacts: %w", err)
	}
	st, err := filestore.Open(ctx, where)
	if err != nil {
		return nil, "", fmt.Errorf("-artifacts: %w", err)
	}
	return st, where, nil
}

// isSQLiteFile reports whether db names a SQLite file (not :memory:, not
// a PostgreSQL URL).
func isSQLiteFile(db string) bool {
	return db != ":memory:" && !strings.HasPrefix(db, "postgres://") && !strings.HasPrefix(db, "postgresql://") &&
		!strings.HasPrefix(db, "file:")
}

// newExporter returns the exporter cfg chooses and its scratch directory
// (none for "simulate"). For "real" it opens the catalog in cfg.Catalog,
// first writing the demo records it lacks (and saying so on out).
func newExporter(cfg Config, out io.Writer) (exp export.Exporter, scratch string, err error) {
	if cfg.Exporter == "simulate" {
		return simulate.New(simulate.Config{Duration: cfg.TaskDuration}), "", nil
	}
	n, err := demo.Write(cfg.Catalog)
	if err != nil {
		return nil, "", fmt.Errorf("-catalog %s: %w", cfg.Catalog, err)
	}
	if n > 0 {
		fmt.Fprintf(out, "wrote %d demo records into the catalog %s\n", n, cfg.Catalog)
	}
	cat, err := catalog.Open(cfg.Catalog)
	if err != nil {
		return nil, "", fmt.Errorf("-catalog %s: %w", cfg.Catalog, err)
	}
	scratch, err = openScratch(cfg)
	if err != nil {
		return nil, "", err
	}
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{
		exporttask.DomainRaster: raster.New(raster.Options{TempDir: scratch}),
		exporttask.DomainDEM:    dem.New(dem.Options{TempDir: scratch, MemoryBudget: cfg.DEMMemory}),
		exporttask.Domain3D:     tiles3d.New(tiles3d.Options{}),
	}, export.WithScratchDir(scratch))
	if err != nil {
		return nil, "", err
	}
	return x, scratch, nil
}

// scratchDir is the name of the default scratch directory.
const scratchDir = "exporttask-scratch"

// openScratch returns this server's scratch directory,
// <Scratch>/<Instance>, emptied of what a crashed run left there: at start
// the server holds no export, so nothing in it is in use. Other servers'
// directories beside it are left alone.
func openScratch(cfg Config) (string, error) {
	root := cfg.Scratch
	if root == "" {
		root = scratchDir
		if isSQLiteFile(cfg.DB) {
			root = filepath.Join(filepath.Dir(cfg.DB), scratchDir)
		}
	}
	name := cfg.Instance
	if name == "" || name == "." || name == ".." {
		name = "default"
	}
	dir := filepath.Join(root, name)
	if err := os.RemoveAll(dir); err != nil {
		return "", fmt.Errorf("-scratch: removing the leftovers in %s: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("-scratch: %w", err)
	}
	return dir, nil
}
