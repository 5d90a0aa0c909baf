package exportserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// readFootprint reads the GeoJSON file of catalog add -footprint: a
// Polygon or MultiPolygon geometry, a Feature with such a geometry, or a
// FeatureCollection of such Features. Members other than those (such as
// the "name" and "crs" ogr2ogr writes) are ignored; coordinates are WGS 84
// longitude/latitude, as RFC 7946 says. The polygons are checked as those
// of a task's ROI (see [exporttask.CreateRequest.Validate]). The result is
// the one Polygon found, or a MultiPolygon of all the polygons found.
// Errors name the file and the JSON Pointer of the value at fault.
func readFootprint(path string) (*exporttask.Geometry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fail := func(ptr, format string, args ...any) error {
		return fmt.Errorf("%s: %s: %s", path, pointerText(ptr), fmt.Sprintf(format, args...))
	}
	var top struct {
		Type     string            `json:"type"`
		Geometry json.RawMessage   `json:"geometry"`
		Features []json.RawMessage `json:"features"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, fmt.Errorf("%s: not a GeoJSON object: %w", path, err)
	}
	var geoms []*exporttask.Geometry
	var ptrs []string // where each geometry is in the file
	add := func(ptr string, raw json.RawMessage) error {
		if len(raw) == 0 || string(raw) == "null" {
			return fail(ptr, "a Polygon or MultiPolygon is required")
		}
		var g exporttask.Geometry
		if err := json.Unmarshal(raw, &g); err != nil {
			return fail(ptr, "%v", strings.TrimPrefix(err.Error(), "exporttask: "))
		}
		if g.Type != exporttask.TypePolygon && g.Type != exporttask.TypeMultiPolygon {
			return fail(ptr+"/type", "must be Polygon or MultiPolygon, got %q", g.Type)
		}
		geoms, ptrs = append(geoms, &g), append(ptrs, ptr)
		return nil
	}
	switch top.Type {
	case exporttask.TypePolygon, exporttask.TypeMultiPolygon:
		err = add("", b)
	case exporttask.TypeFeature:
		err = add("/geometry", top.Geometry)
	case exporttask.TypeFeatureCollection:
		if len(top.Features) == 0 {
			return nil, fail("/features", "holds no Feature")
		}
		for i, raw := range top.Features {
			ptr := "/features/" + strconv.Itoa(i)
			var f struct {
				Type     string          `json:"type"`
				Geometry json.RawMessage `json:"geometry"`
			}
			if err := json.Unmarshal(raw, &f); err != nil || f.Type != exporttask.TypeFeature {
				return nil, fail(ptr, "must be a Feature")
			}
			if err = add(ptr+"/geometry", f.Geometry); err != nil {
				break
			}
		}
	default:
		return nil, fail("/type", "must be Polygon, MultiPolygon, Feature or FeatureCollection, got %q", top.Type)
	}
	if err != nil {
		return nil, err
	}
	if err := checkPolygons(geoms, ptrs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(geoms) == 1 {
		return geoms[0], nil
	}
	var polys [][][]exporttask.Position
	for _, g := range geoms {
		polys = append(polys, g.Polygons()...)
	}
	return exporttask.NewMultiPolygon(polys...), nil
}

// checkPolygons checks geoms as the geometries of a task's ROI, and
// reports the problems at their pointers in the file (ptrs[i] is where
// geoms[i] is).
func checkPolygons(geoms []*exporttask.Geometry, ptrs []string) error {
	fc := exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection}
	for _, g := range geoms {
		fc.Features = append(fc.Features, exporttask.Feature{Type: exporttask.TypeFeature, Properties: map[string]any{}, Geometry: g})
	}
	req := exporttask.CreateRequest{CatalogRecordID: catalog.NewID(), Domain: exporttask.DomainRaster,
		ArtifactCRS: exporttask.CRS4326, ROI: &fc}
	var ve *exporttask.ValidationError
	if err := req.Validate(); !errors.As(err, &ve) {
		return err
	}
	var msgs []string
	for _, p := range ve.Problems {
		rest, ok := strings.CutPrefix(p.Pointer, "/ROI/features/")
		if !ok {
			continue // not about the geometries (the request's other fields)
		}
		num, tail, _ := strings.Cut(rest, "/")
		i, err := strconv.Atoi(num)
		if err != nil || i >= len(ptrs) {
			continue
		}
		if tail != "" {
			tail = strings.TrimPrefix("/"+tail, "/geometry")
		}
		msgs = append(msgs, pointerText(ptrs[i]+tail)+": "+p.Message)
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

// pointerText shows a JSON Pointer, "(root)" for the whole document.
func pointerText(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	return ptr
}
