package exportio

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// Write creates the artifact name through out, lets fill write its content,
// and commits it; when fill (or the commit) fails, the file is aborted so
// nothing half-written stays. It returns the artifact as a task lists it.
func Write(ctx context.Context, out export.Output, name string, typ exporttask.ArtifactType, fill func(w io.Writer) error) (exporttask.Artifact, error) {
	w, err := out.Create(ctx, name)
	if err != nil {
		return exporttask.Artifact{}, fmt.Errorf("creating %s: %w", name, err)
	}
	if err := fill(w); err != nil {
		_ = w.Abort()
		return exporttask.Artifact{}, err
	}
	info, err := w.Commit()
	if err != nil {
		return exporttask.Artifact{}, fmt.Errorf("committing %s: %w", name, err)
	}
	return exporttask.Artifact{Name: name, Type: typ, Size: info.Size, SHA256: info.SHA256}, nil
}

// WriteJSON writes v as indented JSON, as [MarshalIndent] encodes it,
// through [Write].
func WriteJSON(ctx context.Context, out export.Output, name string, typ exporttask.ArtifactType, v any) (exporttask.Artifact, error) {
	return Write(ctx, out, name, typ, func(w io.Writer) error {
		b, err := MarshalIndent(v)
		if err == nil {
			_, err = w.Write(b)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		return nil
	})
}

// FileBase returns the record id made safe as a file name prefix: letters,
// digits, '-', '_' and '.' are kept, anything else becomes '_'.
func FileBase(recordID string) string {
	var b strings.Builder
	for _, r := range recordID {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "export"
	}
	return b.String()
}

// ROI returns the region an export covers as GeoJSON: the request's ROI, or
// the record's footprint as a one-feature collection when there is none.
func ROI(req exporttask.CreateRequest, rec catalog.Record) *exporttask.FeatureCollection {
	if req.ROI != nil {
		return req.ROI
	}
	return &exporttask.FeatureCollection{
		Type:     exporttask.TypeFeatureCollection,
		Features: []exporttask.Feature{{Type: exporttask.TypeFeature, Geometry: rec.Footprint}},
	}
}

// MarshalIndent encodes v as json.MarshalIndent(v, "", "  ") does, with a
// final newline, except that an array holding only numbers (a GeoJSON
// position, a bounding box) stays on one line: "[34.5, 31.25]". A region
// of interest of 50,000 positions then takes a line a position, not four.
func MarshalIndent(v any) ([]byte, error) {
	src, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	// Room for a position a line, indented by about ten spaces.
	b := indent(make([]byte, 0, 2*len(src)+1), src)
	return append(b, '\n'), nil
}
