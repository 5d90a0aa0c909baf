package register

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// fakeIndex is the index file of a directory source, for the fake
// inspector (tileset.json for a real tileset).
const fakeIndex = "index.json"

// fakeFootprint is what the fake inspector finds in any source.
func fakeFootprint() *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}})
}

// fakeInspect stands for a domain's Inspect: a file or index file whose
// content starts with "bad" is refused with a SourceError; anything else
// is a record at levels 2 to 5. It records the sources it was given.
type fakeInspect struct{ seen []catalog.Source }

func (f *fakeInspect) inspect(ctx context.Context, src catalog.Source) (catalog.Record, error) {
	f.seen = append(f.seen, src)
	check := src.Path
	if st, err := os.Stat(src.Path); err == nil && st.IsDir() {
		check = filepath.Join(src.Path, fakeIndex)
	}
	b, err := os.ReadFile(check)
	if err != nil {
		return catalog.Record{}, &export.SourceError{File: check, Problem: "cannot be read", Err: err}
	}
	if strings.HasPrefix(string(b), "bad") {
		return catalog.Record{}, &export.SourceError{File: check, Problem: "is bad", Fix: "make it good"}
	}
	st, err := os.Stat(check)
	if err != nil {
		return catalog.Record{}, err
	}
	out := src
	out.Size, out.ModTime = st.Size(), st.ModTime()
	title := ""
	if strings.HasPrefix(string(b), "titled") {
		title = "Title in the data"
	}
	return catalog.Record{Title: title, Footprint: fakeFootprint(), MinZoom: 2, MaxZoom: 5, Source: &out}, nil
}

func fakeRegistrar() (registrar, *fakeInspect) {
	f := &fakeInspect{}
	m := map[exporttask.Domain]inspectFunc{}
	for _, d := range exporttask.Domains() {
		m[d] = f.inspect
	}
	return registrar{inspect: m, index: fakeIndexOf}, f
}

// fakeIndexOf is the file whose fingerprints a source registered by the
// fake inspector has: index.json in a directory, else the file itself.
func fakeIndexOf(src catalog.Source) string {
	if st, err := os.Stat(src.Path); err == nil && st.IsDir() {
		return filepath.Join(src.Path, fakeIndex)
	}
	return src.Path
}

// writeFile writes content to dir/name, making dir.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// snapshot returns every path under root with its type and the hash of its
// content, to compare a directory before and after.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return out
	}
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		v := info.Mode().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h := sha256.Sum256(b)
			v += " " + hex.EncodeToString(h[:])
		}
		out[path] = v
		return nil
	}))
	return out
}

func TestAddReferencesTheSourceWithARandomID(t *testing.T) {
	r, f := fakeRegistrar()
	root := filepath.Join(t.TempDir(), "catalog") // created by Add
	src := writeFile(t, t.TempDir(), "elevation.tif", "good")

	rec, err := r.add(t.Context(), root, src, Options{Domain: exporttask.DomainDEM})
	require.NoError(t, err)
	_, err = catalog.ParseID(rec.ID)
	require.NoError(t, err)
	assert.Equal(t, byte('4'), rec.ID[14], "version 4")
	assert.Contains(t, "89ab", string(rec.ID[19]), "RFC 9562 variant")
	assert.Equal(t, exporttask.DomainDEM, rec.Domain)
	assert.Equal(t, "elevation.tif", rec.Title)
	assert.Equal(t, fakeFootprint(), rec.Footprint)
	require.NotNil(t, rec.Source)
	assert.Equal(t, src, rec.Source.Path, "absolute path")
	assert.Equal(t, "GTiff", rec.Source.Format)
	assert.Equal(t, int64(4), rec.Source.Size)
	require.Len(t, f.seen, 1)
	assert.Equal(t, catalog.Source{Path: src, Format: "GTiff"}, f.seen[0])

	cat, err := catalog.Open(root)
	require.NoError(t, err)
	got, err := cat.Record(t.Context(), rec.ID)
	require.NoError(t, err)
	require.NotNil(t, got.Source)
	assert.True(t, rec.Source.ModTime.Equal(got.Source.ModTime))
	got.Source.ModTime = rec.Source.ModTime
	assert.Equal(t, rec, got)
	assert.Equal(t, []string{catalog.ManifestName}, names(t, rec.Location), "nothing copied")
	p, err := export.SourcePath(got, "")
	require.NoError(t, err)
	assert.Equal(t, src, p)

	other, err := r.add(t.Context(), root, src, Options{Domain: exporttask.DomainDEM})
	require.NoError(t, err)
	assert.NotEqual(t, rec.ID, other.ID)
}

func TestAddRelativeSourceIsStoredAbsolute(t *testing.T) {
	r, _ := fakeRegistrar()
	dir := t.TempDir()
	writeFile(t, dir, "a.tif", "good")
	t.Chdir(dir)
	rec, err := r.add(t.Context(), "cat", "a.tif", Options{Domain: exporttask.DomainDEM, Title: "My DEM"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "a.tif"), rec.Source.Path)
	assert.Equal(t, filepath.Join(dir, "cat", rec.ID), rec.Location)
	assert.Equal(t, "My DEM", rec.Title)
}

func TestAddTitles(t *testing.T) {
	r, _ := fakeRegistrar()
	root := t.TempDir()
	plain := writeFile(t, t.TempDir(), "plain.gpkg", "good")
	titled := writeFile(t, t.TempDir(), "titled.gpkg", "titled")
	for _, c := range []struct{ src, title, want string }{
		{plain, "", "plain.gpkg"},
		{titled, "", "Title in the data"},
		{titled, "Mine", "Mine"},
	} {
		rec, err := r.add(t.Context(), root, c.src, Options{Domain: exporttask.DomainRaster, Title: c.title})
		require.NoError(t, err)
		assert.Equal(t, c.want, rec.Title)
	}
}

func TestAddGivenIDAndDuplicate(t *testing.T) {
	r, f := fakeRegistrar()
	root := t.TempDir()
	src := writeFile(t, t.TempDir(), "tiles.gpkg", "good")
	const id = "8B867544-2DAB-43A1-BE6E-F23EC83C19B4"
	fp := exporttask.NewPolygon([]exporttask.Position{{34.5, 31.5}, {35, 31.5}, {35, 32}, {34.5, 31.5}})
	rec, err := r.add(t.Context(), root, src, Options{Domain: exporttask.DomainRaster, ID: id, Table: "t1", Footprint: fp})
	require.NoError(t, err)
	assert.Equal(t, strings.ToLower(id), rec.ID)
	assert.Equal(t, fp, rec.Footprint, "the given footprint wins")
	assert.Equal(t, 2, rec.MinZoom)
	assert.Equal(t, catalog.Source{Path: src, Format: "GPKG", Table: "t1"}, f.seen[0])

	before := snapshot(t, root)
	_, err = r.add(t.Context(), root, src, Options{Domain: exporttask.DomainRaster, ID: id})
	assert.ErrorIs(t, err, fs.ErrExist)
	assert.ErrorContains(t, err, strings.ToLower(id))
	assert.Len(t, f.seen, 1, "a duplicate is refused before the source is read")
	assert.Equal(t, before, snapshot(t, root))
}

func TestAddReplace(t *testing.T) {
	r, _ := fakeRegistrar()
	root := t.TempDir()
	const id = "8b867544-2dab-43a1-be6e-f23ec83c19b4"
	old := writeFile(t, t.TempDir(), "old.tif", "good")
	_, err := r.add(t.Context(), root, old, Options{Domain: exporttask.DomainDEM, ID: id, Copy: true, Title: "My relief"})
	require.NoError(t, err)
	before := snapshot(t, root)

	// A bad source leaves the old record as it was.
	bad := writeFile(t, t.TempDir(), "bad.tif", "bad")
	_, err = r.add(t.Context(), root, bad, Options{Domain: exporttask.DomainDEM, ID: id, Replace: true})
	var se *export.SourceError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, before, snapshot(t, root))

	moved := writeFile(t, t.TempDir(), "moved.tif", "good, moved")
	rec, err := r.add(t.Context(), root, moved, Options{Domain: exporttask.DomainDEM, ID: id, Replace: true})
	require.NoError(t, err)
	assert.Equal(t, moved, rec.Source.Path)
	assert.Equal(t, "My relief", rec.Title, "the record replaced keeps its title (catalog.ReplaceCommand gives none)")
	assert.Equal(t, []string{id}, names(t, root), "one record, no leftovers")

	// A title given replaces it.
	rec, err = r.add(t.Context(), root, moved, Options{Domain: exporttask.DomainDEM, ID: id, Replace: true, Title: "Relief 2"})
	require.NoError(t, err)
	assert.Equal(t, "Relief 2", rec.Title)
	assert.Equal(t, []string{catalog.ManifestName}, names(t, rec.Location), "the old copy went with the old record")

	// Replace of an id not in the catalog adds it; Replace needs an id.
	_, err = r.add(t.Context(), root, moved, Options{Domain: exporttask.DomainDEM, ID: "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60", Replace: true})
	require.NoError(t, err)
	_, err = r.add(t.Context(), root, moved, Options{Domain: exporttask.DomainDEM, Replace: true})
	assert.ErrorContains(t, err, "Replace: the ID")
}

func TestAddCopiesAFile(t *testing.T) {
	r, _ := fakeRegistrar()
	root := t.TempDir()
	src := writeFile(t, t.TempDir(), "elevation.tif", "good data")
	rec, err := r.add(t.Context(), root, src, Options{Domain: exporttask.DomainDEM, Copy: true})
	require.NoError(t, err)
	assert.Equal(t, "elevation.tif", rec.Source.Path, "relative to the record's directory")

	cat, err := catalog.Open(root)
	require.NoError(t, err)
	got, err := cat.Record(t.Context(), rec.ID)
	require.NoError(t, err)
	p, err := export.SourcePath(got, "")
	require.NoError(t, err, "the copy has the registered size and modification time")
	assert.Equal(t, filepath.Join(rec.Location, "elevation.tif"), p)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "good data", string(b))

	// Removing the record removes the copy, not the original.
	require.NoError(t, cat.Remove(t.Context(), rec.ID))
	assert.NoDirExists(t, rec.Location)
	assert.FileExists(t, src)
}

func TestAddCopiesADirectory(t *testing.T) {
	r, f := fakeRegistrar()
	root := t.TempDir()
	srcDir := filepath.Join(t.TempDir(), "tileset")
	writeFile(t, srcDir, fakeIndex, `{"asset":{}}`)
	writeFile(t, srcDir, "0/0/0.b3dm", "b3dm bytes")
	writeFile(t, srcDir, "sub/tileset.json", "{}")
	require.NoError(t, os.Symlink("0/0/0.b3dm", filepath.Join(srcDir, "link.b3dm"))) // relative: os.Root refuses absolute links

	rec, err := r.add(t.Context(), root, srcDir+"/", Options{Domain: exporttask.Domain3D, Copy: true})
	require.NoError(t, err)
	assert.Equal(t, "3DTILES", f.seen[0].Format)
	assert.Equal(t, srcDir, f.seen[0].Path, "cleaned")
	assert.Equal(t, "tileset", rec.Title)
	assert.Equal(t, "tileset", rec.Source.Path)

	got, err := catalog.Open(root)
	require.NoError(t, err)
	stored, err := got.Record(t.Context(), rec.ID)
	require.NoError(t, err)
	p, err := export.SourcePath(stored, fakeIndex)
	require.NoError(t, err)
	for _, name := range []string{fakeIndex, "0/0/0.b3dm", "sub/tileset.json", "link.b3dm"} {
		want, err := os.ReadFile(filepath.Join(srcDir, name))
		require.NoError(t, err)
		have, err := os.ReadFile(filepath.Join(p, name))
		require.NoError(t, err, name)
		assert.Equal(t, want, have, name)
	}
	st, err := os.Lstat(filepath.Join(p, "link.b3dm"))
	require.NoError(t, err)
	assert.True(t, st.Mode().IsRegular(), "a link to a file is copied as the file")
}

func TestAddCopyRefusesALinkToADirectory(t *testing.T) {
	r, _ := fakeRegistrar()
	root := t.TempDir()
	srcDir := filepath.Join(t.TempDir(), "tileset")
	writeFile(t, srcDir, fakeIndex, "{}")
	writeFile(t, srcDir, "sub/a.b3dm", "b3dm bytes")
	require.NoError(t, os.Symlink("sub", filepath.Join(srcDir, "again")))
	_, err := r.add(t.Context(), root, srcDir, Options{Domain: exporttask.Domain3D, Copy: true})
	assert.ErrorContains(t, err, "symbolic link to a directory")
	assert.Empty(t, names(t, root), "nothing left in the catalog")
}

// TestAddRefusesBadSourcesAndLeavesTheCatalogAlone: the catalog's files
// are byte-identical before and after a refused source.
func TestAddRefusesBadSourcesAndLeavesTheCatalogAlone(t *testing.T) {
	r, _ := fakeRegistrar()
	root := t.TempDir()
	good := writeFile(t, t.TempDir(), "good.tif", "good")
	_, err := r.add(t.Context(), root, good, Options{Domain: exporttask.DomainDEM, Copy: true})
	require.NoError(t, err)
	before := snapshot(t, root)

	srcs := t.TempDir()
	bad := writeFile(t, srcs, "bad.tif", "bad bytes")
	badDir := filepath.Join(srcs, "badset")
	writeFile(t, badDir, fakeIndex, "bad")
	cases := []struct {
		name, source string
		opts         Options
		file         string
	}{
		{"refused by the inspector", bad, Options{Domain: exporttask.DomainDEM}, bad},
		{"refused, with copy", bad, Options{Domain: exporttask.DomainDEM, Copy: true}, bad},
		{"directory refused", badDir, Options{Domain: exporttask.Domain3D, Copy: true}, filepath.Join(badDir, fakeIndex)},
		{"missing", filepath.Join(srcs, "nope.tif"), Options{Domain: exporttask.DomainDEM}, filepath.Join(srcs, "nope.tif")},
		{"a directory as DEM", badDir, Options{Domain: exporttask.DomainDEM}, badDir},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.add(t.Context(), root, c.source, c.opts)
			var se *export.SourceError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, c.file, se.File)
			assert.NotContains(t, se.Error(), "\n")
			assert.Equal(t, before, snapshot(t, root))
		})
	}
}

// TestAddRefusesSourcesMixedWithTheCatalog: a source inside the catalog
// (which removing a record could delete) and a directory copied into a
// catalog inside it are refused.
func TestAddRefusesSourcesMixedWithTheCatalog(t *testing.T) {
	r, f := fakeRegistrar()
	data := t.TempDir()
	root := filepath.Join(data, "catalog")
	inside := writeFile(t, root, "stray/a.tif", "good")
	writeFile(t, data, fakeIndex, "good")
	_, err := r.add(t.Context(), root, inside, Options{Domain: exporttask.DomainDEM})
	assert.ErrorContains(t, err, "is inside the catalog")
	_, err = r.add(t.Context(), root, data, Options{Domain: exporttask.Domain3D, Copy: true})
	assert.ErrorContains(t, err, "holds the catalog")
	assert.Empty(t, f.seen)
	assert.Equal(t, []string{"stray"}, names(t, root))

	// A sibling whose name starts like the catalog's is not inside it.
	beside := writeFile(t, data, "catalog2/a.tif", "good")
	_, err = r.add(t.Context(), root, beside, Options{Domain: exporttask.DomainDEM})
	assert.NoError(t, err)
	// Referenced (not copied), a directory holding the catalog is fine.
	_, err = r.add(t.Context(), root, data, Options{Domain: exporttask.Domain3D})
	assert.NoError(t, err)
}

func TestAddOptionErrors(t *testing.T) {
	r, f := fakeRegistrar()
	root := t.TempDir()
	file := writeFile(t, t.TempDir(), "x.gpkg", "good")
	dir := filepath.Join(t.TempDir(), "tiles")
	writeFile(t, dir, fakeIndex, "good")
	manifest := writeFile(t, t.TempDir(), catalog.ManifestName, "good")
	cases := []struct {
		name, source string
		opts         Options
		want         string
	}{
		{"no domain", file, Options{}, "Domain"},
		{"bad domain", file, Options{Domain: "VECTOR"}, "VECTOR"},
		{"bad id", file, Options{Domain: exporttask.DomainRaster, ID: "42"}, `ID: catalog: "42" is not a UUID`},
		{"table for DEM", file, Options{Domain: exporttask.DomainDEM, Table: "t"}, "Table"},
		{"scheme for 3D", dir, Options{Domain: exporttask.Domain3D, Scheme: SchemeXYZ}, "Scheme"},
		{"bad scheme", dir, Options{Domain: exporttask.DomainRaster, Scheme: "google"}, `"google" is not tms or xyz`},
		{"xyz for a file", file, Options{Domain: exporttask.DomainRaster, Scheme: SchemeXYZ}, "tile directories only"},
		{"table for a directory", dir, Options{Domain: exporttask.DomainRaster, Table: "t"}, "GeoPackage files only"},
		{"footprint not a polygon", file, Options{Domain: exporttask.DomainRaster, Footprint: &exporttask.Geometry{Type: "Point"}}, "Footprint"},
		{"copy of record.json", manifest, Options{Domain: exporttask.DomainDEM, Copy: true}, "manifest"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.add(t.Context(), root, c.source, c.opts)
			require.Error(t, err)
			assert.ErrorContains(t, err, c.want)
		})
	}
	assert.Len(t, f.seen, 1, "only record.json was read, the others were refused first")
	assert.Empty(t, names(t, root))
}

func TestAddRasterFormats(t *testing.T) {
	r, f := fakeRegistrar()
	root := t.TempDir()
	dir := filepath.Join(t.TempDir(), "tiles")
	writeFile(t, dir, fakeIndex, "good")
	_, err := r.add(t.Context(), root, dir, Options{Domain: exporttask.DomainRaster})
	require.NoError(t, err)
	_, err = r.add(t.Context(), root, dir, Options{Domain: exporttask.DomainRaster, Scheme: SchemeXYZ})
	require.NoError(t, err)
	_, err = r.add(t.Context(), root, dir, Options{Domain: exporttask.DomainRaster, Scheme: SchemeTMS})
	require.NoError(t, err)
	require.Len(t, f.seen, 3)
	assert.Equal(t, []string{"TMS", "XYZ", "TMS"}, []string{f.seen[0].Format, f.seen[1].Format, f.seen[2].Format})
}

func TestAddHonoursTheContext(t *testing.T) {
	r, f := fakeRegistrar()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := r.add(ctx, t.TempDir(), writeFile(t, t.TempDir(), "a.tif", "good"), Options{Domain: exporttask.DomainDEM})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, f.seen)
}

// TestRemoveNeverTouchesAReferencedSource: the record goes, its source
// (a file, and a directory reached through a link in the record's
// directory) stays.
func TestRemoveNeverTouchesAReferencedSource(t *testing.T) {
	r, _ := fakeRegistrar()
	root := t.TempDir()
	srcDir := filepath.Join(t.TempDir(), "set")
	writeFile(t, srcDir, fakeIndex, "good")
	file := writeFile(t, t.TempDir(), "a.tif", "good")
	recDir, err := r.add(t.Context(), root, srcDir, Options{Domain: exporttask.Domain3D})
	require.NoError(t, err)
	recFile, err := r.add(t.Context(), root, file, Options{Domain: exporttask.DomainDEM})
	require.NoError(t, err)
	// Something placed a link to the source in the record's directory.
	require.NoError(t, os.Symlink(srcDir, filepath.Join(recDir.Location, "link")))
	srcBefore := snapshot(t, filepath.Dir(srcDir))
	fileBefore := snapshot(t, filepath.Dir(file))

	cat, err := catalog.Open(root)
	require.NoError(t, err)
	require.NoError(t, cat.Remove(t.Context(), recDir.ID))
	require.NoError(t, cat.Remove(t.Context(), strings.ToUpper(recFile.ID)))
	assert.Equal(t, srcBefore, snapshot(t, filepath.Dir(srcDir)))
	assert.Equal(t, fileBefore, snapshot(t, filepath.Dir(file)))
	assert.Empty(t, names(t, root), "no record and no hidden leftovers")
	_, err = cat.Record(t.Context(), recDir.ID)
	assert.ErrorIs(t, err, catalog.ErrNotFound)
}

// names lists a directory's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
