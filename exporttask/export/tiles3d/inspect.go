package tiles3d

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// SourceFormat is the catalog.Source.Format of a 3D Tiles tileset.
const SourceFormat = "3DTILES"

// Inspect reads the source src names and returns what a record of it
// holds: Footprint, levels or resolution, and Source completed (absolute
// Path, Format, Size, ModTime). A source this package cannot export is a
// *export.SourceError.
//
// src.Path is a tileset directory holding tileset.json, or that
// tileset.json itself; the returned Source.Path is the directory, absolute,
// with Format "3DTILES" and the Size and ModTime of its tileset.json. The
// whole tileset is read as an export reads it: every tileset JSON file
// (external ones included) must parse and be 3D Tiles 1.0 or 1.1 without
// implicit tiling, every tile must have a region, box or sphere volume,
// and every content URI must be a relative path to a b3dm, i3dm, pnts,
// cmpt, glb, gltf or tileset JSON file that exists inside the directory
// (checked with stat; a .gltf's external buffers and images, and the
// headers of i3dm and cmpt files, are read too).
//
// The Record has Domain 3D, Footprint the main root's bounding volume as
// a lon/lat rectangle (for a box or sphere, the region that holds it; see
// the package documentation), MinZoom 0 and MaxZoom the deepest tile
// level, where the root is level 0 and each child, and each external
// tileset's root, one deeper than its parent.
func Inspect(ctx context.Context, src catalog.Source) (catalog.Record, error) {
	abs, err := filepath.Abs(src.Path)
	if err != nil {
		return catalog.Record{}, fmt.Errorf("tiles3d: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		problem := "cannot be read: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			problem = "no such file or directory"
		}
		return catalog.Record{}, &export.SourceError{File: abs, Problem: problem,
			Fix: "give a 3D Tiles tileset directory or its " + TilesetFile, Err: err}
	}
	dir := abs
	if !st.IsDir() {
		if filepath.Base(abs) != TilesetFile {
			return catalog.Record{}, &export.SourceError{File: abs,
				Problem: "a 3D source is a tileset directory or its " + TilesetFile + " file",
				Fix:     "name the main tileset JSON " + TilesetFile + " and give its directory"}
		}
		dir = filepath.Dir(abs)
	}
	index := filepath.Join(dir, TilesetFile)
	ist, err := os.Stat(index)
	if err != nil {
		problem := "cannot be read: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			problem = "no " + TilesetFile + " in the directory"
		}
		return catalog.Record{}, &export.SourceError{File: dir, Problem: problem,
			Fix: "give a 3D Tiles tileset directory that holds " + TilesetFile, Err: err}
	}
	s, err := loadSource(ctx, dir)
	if err != nil {
		return catalog.Record{}, err
	}
	b := s.main.root.region.box()
	if !(b.Width() > 0) || !(b.Height() > 0) {
		return catalog.Record{}, &export.SourceError{File: index,
			Problem: fmt.Sprintf("/root/boundingVolume: the root's region %+v has no area", b),
			Fix:     "give the root a bounding volume around the whole tileset"}
	}
	// The source must still be the one read: a tileset.json replaced while
	// it was read would register sizes that no longer match.
	if again, err := os.Stat(index); err != nil || again.Size() != ist.Size() || !again.ModTime().Equal(ist.ModTime()) {
		return catalog.Record{}, &export.SourceError{File: index, Problem: "changed while it was read",
			Fix: "register it again once it is written", Err: err}
	}
	return catalog.Record{
		Domain: exporttask.Domain3D,
		Footprint: exporttask.NewPolygon([]exporttask.Position{
			{b.West, b.South}, {b.East, b.South}, {b.East, b.North}, {b.West, b.North}, {b.West, b.South}}),
		MinZoom: 0,
		MaxZoom: s.depth,
		Source: &catalog.Source{
			Path: dir, Format: SourceFormat, Size: ist.Size(), ModTime: ist.ModTime(),
		},
	}, nil
}
