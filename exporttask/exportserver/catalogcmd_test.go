package exportserver

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// runCatalog runs the catalog command and returns its exit status, stdout
// and stderr.
func runCatalog(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := RunCatalog(t.Context(), args, envOf(env), &out, &errOut)
	return code, out.String(), errOut.String()
}

// oneLineOf requires s to be one line, and returns it without its newline.
func oneLineOf(t *testing.T, s string) string {
	t.Helper()
	require.True(t, strings.HasSuffix(s, "\n"), "%q ends with a newline", s)
	line := strings.TrimSuffix(s, "\n")
	require.NotContains(t, line, "\n", "one line")
	return line
}

func TestCatalogUsageErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.tif")
	require.NoError(t, os.WriteFile(src, []byte("x"), 0o644))
	cat := filepath.Join(dir, "cat")
	cases := []struct {
		args []string
		want string
	}{
		{nil, "usage:"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"add", "-catalog", cat, src}, "-domain must be RASTER, DEM or 3D"},
		{[]string{"add", "-catalog", cat, "-domain", "VECTOR", src}, `got "VECTOR"`},
		{[]string{"add", "-catalog", cat, "-domain", "DEM"}, "one SOURCE is needed, got 0"},
		{[]string{"add", "-catalog", cat, "-domain", "DEM", src, src}, "one SOURCE is needed, got 2"},
		{[]string{"add", "-catalog", cat, "-domain", "DEM", "-id", "42", src}, `-id: "42" is not a UUID`},
		{[]string{"add", "-catalog", cat, "-domain", "RASTER", "-scheme", "google", src}, "-scheme must be tms or xyz"},
		{[]string{"add", "-catalog", cat, "-domain", "DEM", "-scheme", "xyz", src}, "-scheme applies to RASTER"},
		{[]string{"add", "-catalog", cat, "-domain", "3D", "-table", "t", src}, "-table applies to RASTER"},
		{[]string{"add", "-catalog", cat, "-bogus", src}, "flag provided but not defined: -bogus"},
		{[]string{"add", "-catalog", cat, "-domain", "DEM", "-replace", src}, "-replace needs the -id"},
		{[]string{"list", "-catalog", cat, "extra"}, "unexpected arguments: extra"},
		{[]string{"remove", "-catalog", cat}, "one record ID is needed, got 0"},
		{[]string{"remove", "-catalog", cat, "../x"}, `"../x" is not a UUID`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := runCatalog(t, nil, c.args...)
			assert.Equal(t, ExitUsage, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, c.want)
		})
	}
	assert.NoDirExists(t, cat, "nothing written")
}

func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args, pos []string
		copy      bool
	}{
		{[]string{"a.tif"}, []string{"a.tif"}, false},
		{[]string{"-copy", "a.tif"}, []string{"a.tif"}, true},
		{[]string{"a.tif", "-copy"}, []string{"a.tif"}, true},
		{[]string{"a.tif", "b.tif", "-copy", "c.tif"}, []string{"a.tif", "b.tif", "c.tif"}, true},
		{[]string{"--", "-copy", "a.tif"}, []string{"-copy", "a.tif"}, false},
		{[]string{"a.tif", "--", "-copy"}, []string{"a.tif", "-copy"}, false},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		cp := fs.Bool("copy", false, "")
		pos, err := parseArgs(fs, c.args)
		require.NoError(t, err, "%v", c.args)
		assert.Equal(t, c.pos, pos, "%v", c.args)
		assert.Equal(t, c.copy, *cp, "%v", c.args)
	}
}

func TestCatalogHelpExits0(t *testing.T) {
	code, out, _ := runCatalog(t, nil, "-h")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, out, "server catalog add")
	code, _, errOut := runCatalog(t, nil, "add", "-h")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, errOut, "-footprint FILE")
	assert.Contains(t, errOut, "$EXPORTTASK_CATALOG")
}

// TestCatalogAddBadSourceExits1: one line on stderr naming the file, and
// the catalog is left as it was.
func TestCatalogAddBadSourceExits1(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "cat")
	require.NoError(t, catalog.WriteRecord(cat, testRecord(t, "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"), nil))
	before := treeOf(t, cat)
	missing := filepath.Join(dir, "missing.tif")
	code, out, errOut := runCatalog(t, nil, "add", "-catalog", cat, "-domain", "DEM", missing)
	assert.Equal(t, ExitFailed, code)
	assert.Empty(t, out)
	assert.Equal(t, missing+": cannot be read (no such file or directory); check the path", oneLineOf(t, errOut))

	code, out, errOut = runCatalog(t, nil, "add", "-catalog", cat, "-domain", "DEM", dir)
	assert.Equal(t, ExitFailed, code)
	assert.Empty(t, out)
	assert.Equal(t, dir+": is a directory, not a GeoTIFF; give the .tif file", oneLineOf(t, errOut))
	assert.Equal(t, before, treeOf(t, cat))
}

func TestCatalogListAndRemove(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "cat")
	ids := []string{"c0ffee00-3d3d-4d3d-8d3d-0123456789ab", "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"}
	for _, id := range ids {
		require.NoError(t, catalog.WriteRecord(cat, testRecord(t, id), nil))
	}
	// The catalog comes from EXPORTTASK_CATALOG when -catalog is not given.
	env := map[string]string{"EXPORTTASK_CATALOG": cat}
	code, out, errOut := runCatalog(t, env, "list")
	require.Equal(t, ExitOK, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 2)
	var first catalog.Record
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, ids[1], first.ID, "sorted by id")
	assert.Equal(t, "record "+ids[1], first.Title)
	assert.Contains(t, lines[1], `"id":"`+ids[0]+`"`)
	assert.Contains(t, lines[0], `"resolution":0.001`, "a DEM shows its resolution")
	assert.NotContains(t, lines[0], "Zoom")
	raster := testRecord(t, "8b867544-2dab-43a1-be6e-f23ec83c19b4")
	raster.Domain, raster.Resolution, raster.MaxZoom = exporttask.DomainRaster, 0, 3
	require.NoError(t, catalog.WriteRecord(cat, raster, nil))
	code, out, _ = runCatalog(t, env, "list")
	require.Equal(t, ExitOK, code)
	assert.Contains(t, out, `"minZoom":0,"maxZoom":3}`, "minZoom 0 is shown")
	code, _, errOut = runCatalog(t, env, "remove", raster.ID)
	require.Equal(t, ExitOK, code, errOut)

	code, out, errOut = runCatalog(t, env, "remove", strings.ToUpper(ids[0]))
	require.Equal(t, ExitOK, code, errOut)
	assert.Empty(t, out)
	code, out, _ = runCatalog(t, nil, "list", "-catalog", cat)
	require.Equal(t, ExitOK, code)
	assert.Equal(t, 1, strings.Count(out, "\n"))
	assert.NotContains(t, out, ids[0])

	code, _, errOut = runCatalog(t, env, "remove", ids[0])
	assert.Equal(t, ExitFailed, code)
	assert.Equal(t, "catalog remove: catalog: record "+ids[0]+": catalog record not found", oneLineOf(t, errOut))

	// A malformed record is reported; the others are listed.
	bad := filepath.Join(cat, ids[1], catalog.ManifestName)
	require.NoError(t, os.WriteFile(bad, []byte("{"), 0o644))
	require.NoError(t, catalog.WriteRecord(cat, testRecord(t, ids[0]), nil))
	code, out, errOut = runCatalog(t, env, "list")
	assert.Equal(t, ExitFailed, code)
	assert.Contains(t, out, ids[0])
	assert.Equal(t, 1, strings.Count(out, "\n"))
	assert.Contains(t, oneLineOf(t, errOut), bad)

	code, _, errOut = runCatalog(t, nil, "list", "-catalog", filepath.Join(cat, "nope"))
	assert.Equal(t, ExitFailed, code)
	assert.Contains(t, oneLineOf(t, errOut), "no such file or directory")
}

// TestCatalogDefaultIsTheServers: without -catalog nor the variable, the
// command and the server use the same directory.
func TestCatalogDefaultIsTheServers(t *testing.T) {
	cfg, err := ParseConfig(nil, envOf(nil), &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, DefaultCatalog, cfg.Catalog)
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, catalog.WriteRecord(DefaultCatalog, testRecord(t, "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"), nil))
	code, out, errOut := runCatalog(t, nil, "list")
	require.Equal(t, ExitOK, code, errOut)
	assert.Contains(t, out, "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60")
}

// testRecord is a DEM record with no source.
func testRecord(t *testing.T, id string) catalog.Record {
	t.Helper()
	return catalog.Record{ID: id, Domain: exporttask.DomainDEM, Title: "record " + id, Resolution: 0.001,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}})}
}

// treeOf returns each file under root with its content.
func treeOf(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[path] = string(b)
		} else {
			out[path] = info.Mode().String()
		}
		return nil
	}))
	return out
}
