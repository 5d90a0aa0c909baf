package raster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// Export writes the job's export through out: the GeoPackage
// (<record id>.gpkg, type GPKG), the three thumbnails (THUMBNAILS_SMALL,
// _MEDIUM, _LARGE) and metadata.json (METADATA), in that order. Progress
// is tiles copied out of tiles selected. Nothing is committed until every
// file is written, so a failure or a stop leaves nothing in out. A bad
// parameter or a missing or unreadable source is an
// export.PermanentError; other failures (a full disk, a failed write)
// may pass and are plain errors.
func (x *Exporter) Export(ctx context.Context, j export.Job, out export.Output) ([]exporttask.Artifact, error) {
	minZoom, maxZoom, err := exportLevels(j.Record(), j.Request().Parameters)
	if err != nil {
		return nil, export.Permanent(err.Error(), err)
	}
	format, err := tileFormatParam(j.Record(), j.Request().Parameters)
	if err != nil {
		return nil, export.Permanent(err.Error(), err)
	}
	src, err := openSource(ctx, j.Record())
	if err != nil {
		return nil, err
	}
	defer src.Close()
	src.useTileFormat(format)
	sel, err := selectTiles(ctx, src, j, minZoom, maxZoom)
	if err != nil {
		return nil, unreadable(j.Record(), err)
	}

	dir := x.tempDir
	if j.ScratchDir() != "" {
		dir = j.ScratchDir()
	}
	tmp, err := os.CreateTemp(dir, "raster-export-*.gpkg")
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	tmpPath := tmp.Name()
	tmp.Close() // an empty file is an empty SQLite database
	defer os.Remove(tmpPath)

	thumbs, err := build(ctx, tmpPath, src, j, sel, minZoom, maxZoom, out)
	if err != nil {
		return nil, err
	}
	if src.render != nil { // the tiles rendered, and their real sizes
		for i, l := range sel.Levels {
			w := src.render.written[l.Zoom]
			sel.Levels[i].Tiles, sel.Levels[i].Bytes = w.tiles, w.bytes
		}
	}
	return write(ctx, out, tmpPath, thumbs, j, sel, minZoom, maxZoom)
}

// build writes the GeoPackage to path and draws the thumbnails, the
// thumbnails (CPU) while the tiles are copied (mostly I/O).
func build(ctx context.Context, path string, src *source, j export.Job, sel selection, minZoom, maxZoom int,
	out export.Output) ([][]byte, error) {
	thumbCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	type drawn struct {
		pngs [][]byte
		err  error
	}
	done := make(chan drawn, 1)
	go func() {
		var d drawn
		defer func() { done <- d }()
		defer guard.Recover(&d.err)
		d.pngs, d.err = drawThumbnails(thumbCtx, src, j, sel)
	}()
	ts := tileSet{Identifier: exportIdentifier(j.Record()), Description: "export of catalog record " + j.Record().ID,
		Extent: snapOut(j.Box(), maxZoom), MinZoom: minZoom, MaxZoom: maxZoom}
	var err error
	if src.imagery != nil {
		// The renderer takes a turn per tile (renderLevel).
		err = buildGeoPackage(ctx, path, src, ts, sel, out)
	} else {
		err = pacedCopy(ctx, out, func(out export.Output) error {
			return buildGeoPackage(ctx, path, src, ts, sel, out)
		})
	}
	if err != nil {
		cancel()
	}
	d := <-done
	// Whatever SQLite made of a source cut short or rewritten in place
	// (errors, or pages read as zeros), the file tells.
	if changed := src.unchanged(); changed != nil && ctx.Err() == nil {
		return nil, export.Permanent("the source of catalog record "+j.Record().ID+" changed during the export; "+
			"export it again once it is complete", errors.Join(changed, err, d.err))
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil && (faultText(err) != "" || isDamaged(err) || errors.Is(err, errCopyCount) || errors.As(err, new(*badSource))):
		return nil, unreadable(j.Record(), fmt.Errorf("building the GeoPackage: %w", err))
	case err != nil:
		return nil, fmt.Errorf("raster: building the GeoPackage: %w", err)
	case d.err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case export.IsPermanent(d.err):
		return nil, d.err
	case d.err != nil:
		return nil, unreadable(j.Record(), d.err)
	}
	return d.pngs, nil
}

// write stores the files in out (the GeoPackage moved from gpkgPath where
// out can take it) and commits them once all are written.
func write(ctx context.Context, out export.Output, gpkgPath string, thumbs [][]byte, j export.Job,
	sel selection, minZoom, maxZoom int) (arts []exporttask.Artifact, err error) {
	set := &artifactSet{out: out}
	defer func() {
		if err != nil {
			err = errors.Join(fmt.Errorf("raster: %w", err), set.abort())
		}
	}()
	if err := set.addFile(ctx, j.Record().ID+".gpkg", exporttask.ArtifactGPKG, gpkgPath); err != nil {
		return nil, err
	}
	for i, t := range thumbnails() {
		if err := set.add(ctx, t.Name, t.Type, bytes.NewReader(thumbs[i])); err != nil {
			return nil, err
		}
	}
	meta, err := metadataJSON(j, sel, minZoom, maxZoom, set.artifacts(), time.Now())
	if err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	if err := set.add(ctx, MetadataName, exporttask.ArtifactMetadata, bytes.NewReader(meta)); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if total := sel.Tiles(); total > 0 {
		if err := out.Progress(total, total); err != nil {
			return nil, err
		}
	}
	return set.commit()
}

// unreadable is the permanent failure of a record whose tiles cannot be
// read. A context's end is no such failure and is returned as it is. The
// reason names the file or tile at fault when err says which (a file of
// the source by its path inside it, a tile by level, column and row).
func unreadable(rec catalog.Record, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	reason := "the tiles of catalog record " + rec.ID + " are unreadable"
	var bad *badSource
	switch {
	case errors.As(err, &bad):
		reason += ": " + bad.problem
	case faultText(err) != "":
		reason += ": " + faultText(err)
	case isDamaged(err):
		reason += ": the GeoPackage is damaged"
	}
	return export.Permanent(reason, err)
}

// faultText says which file or tile of a source err is about, in words
// fit for an API client, or "" when err says nothing of the kind.
func faultText(err error) string {
	var fe *sourcefs.Error
	var te *tileError
	switch {
	case errors.As(err, &te):
		return te.Error()
	case errors.As(err, &fe):
		return "the file " + fe.Error()
	}
	return ""
}
