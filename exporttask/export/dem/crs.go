package dem

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// NeedsWarp reports whether a DEM source in CRS c must be warped
// (resampled onto an EPSG:4326 grid) to be exported: every CRS but
// EPSG:4326 itself. Such a source registers (its footprint transformed
// to longitude/latitude) and its exports are warped (see Warping in the
// package documentation).
func NeedsWarp(c *crs.CRS) bool { return !c.IsLonLatWGS84() }

// checkCRS finds the source's CRS from its GeoKeys: nil and a
// SourceError when this engine cannot transform it.
func (s *source) checkCRS() (*crs.CRS, *export.SourceError) {
	f, name := s.tif, filepath.Base(s.path)
	c, err := crs.FromGeoKeys(f.Geo)
	if err == nil {
		return c, nil
	}
	g := f.Geo
	if g.Code(geotiff.KeyModelType) == 0 && g.Code(geotiff.KeyGeodeticCRS) == 0 && g.Code(geotiff.KeyProjectedCRS) == 0 {
		return nil, &export.SourceError{File: s.path, Problem: "it has no CRS (no GeoKeys)", Fix: assignCRSFix(name)}
	}
	return nil, &export.SourceError{File: s.path, Problem: err.Error(), Fix: reprojectFix(name, f), Err: err}
}

// checkExtent checks that the grid's extent transforms to longitude and
// latitude: within ±180°, ±90° for a geographic CRS (to a pixel), every
// densified edge point for a projected one.
func (s *source) checkExtent(gt [6]float64) *export.SourceError {
	f := s.tif
	west, north := gt[0], gt[3]
	east, south := west+float64(f.Width)*gt[1], north+float64(f.Height)*gt[5]
	reproject := "check its georeferencing; " + reprojectFix(filepath.Base(s.path), f)
	if s.crs.IsGeographic() {
		const slack = 1e-6 // degrees: rounding in the georeferencing
		if west < -180-slack-gt[1] || east > 180+slack+gt[1] || south < -90-slack+gt[5] || north > 90+slack-gt[5] {
			return &export.SourceError{File: s.path, Problem: fmt.Sprintf("its extent (west %g, south %g, east %g, north %g) is not within longitude ±180°, latitude ±90°",
				west, south, east, north), Fix: reproject}
		}
		return nil
	}
	if _, _, err := crs.Footprint(s.crs, west, south, east, north, 0); err != nil {
		return &export.SourceError{File: s.path, Problem: fmt.Sprintf("its extent (%g, %g, %g, %g in %s) cannot be transformed to longitude/latitude (%v)",
			west, south, east, north, s.crs, err), Fix: reproject, Err: err}
	}
	return nil
}

// footprint returns the longitude/latitude box of the pixels b (inclusive)
// of a source in a CRS other than WGS 84: the box's edges in the source
// CRS, densified and transformed.
func (s *source) footprint(b pixelBox) (geom.BBox, error) {
	x0, x1 := s.gt[0]+float64(b.c0)*s.gt[1], s.gt[0]+float64(b.c1+1)*s.gt[1]
	y0, y1 := s.gt[3]+float64(b.r1+1)*s.gt[5], s.gt[3]+float64(b.r0)*s.gt[5]
	_, box, err := crs.Footprint(s.crs, x0, y0, x1, y1, 0)
	return box, err
}

// warpResolution returns the pixel size in degrees `gdalwarp -t_srs
// EPSG:4326` chooses for the whole source (GDALSuggestedWarpOutput): the
// diagonal of its transformed extent over its diagonal in pixels.
func (s *source) warpResolution() (float64, error) {
	f := s.tif
	box, err := s.footprint(pixelBox{c0: 0, r0: 0, c1: f.Width - 1, r1: f.Height - 1})
	if err != nil {
		return 0, err
	}
	return math.Hypot(box.East-box.West, box.North-box.South) / math.Hypot(float64(f.Width), float64(f.Height)), nil
}
