package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// roiEnv passes the -roi box to the export children.
const roiEnv = "RASTEREXPORT_ROI"

// box is an area in degrees: west, south, east, north.
type box [4]float64

// parseBox reads "west,south,east,north"; "" is no box.
func parseBox(s string) (*box, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return nil, fmt.Errorf("-roi %q: want west,south,east,north", s)
	}
	var b box
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("-roi %q: %w", s, err)
		}
		b[i] = v
	}
	if b[0] >= b[2] || b[1] >= b[3] {
		return nil, fmt.Errorf("-roi %q: empty box", s)
	}
	return &b, nil
}

// roiFromEnv is the ROI a child exports (nil: the whole record).
func roiFromEnv() (*exporttask.FeatureCollection, error) {
	b, err := parseBox(os.Getenv(roiEnv))
	if err != nil || b == nil {
		return nil, err
	}
	return &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection,
		Features: []exporttask.Feature{{Type: exporttask.TypeFeature, Geometry: square(b[0], b[1], b[2], b[3])}}}, nil
}

// where is the WHERE clause that selects the tiles of levels minZoom..maxZoom
// that meet b (a tile that only touches its edge is left out, as the
// export leaves it out), on the grid of EPSG:4326 (level z: tiles of
// 180/2^z degrees, column 0 at longitude -180, row 0 at latitude 90).
func (b box) where(minZoom, maxZoom int) string {
	var or []string
	for z := minZoom; z <= maxZoom; z++ {
		d := 180 / math.Ldexp(1, z)
		c0, c1 := int64(math.Floor((b[0]+180)/d)), int64(math.Ceil((b[2]+180)/d))-1
		r0, r1 := int64(math.Floor((90-b[3])/d)), int64(math.Ceil((90-b[1])/d))-1
		or = append(or, fmt.Sprintf("(zoom_level = %d AND tile_column BETWEEN %d AND %d AND tile_row BETWEEN %d AND %d)",
			z, c0, c1, r0, r1))
	}
	return " WHERE " + strings.Join(or, " OR ")
}
