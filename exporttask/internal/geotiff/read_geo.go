package geotiff

import (
	"fmt"
	"math"
	"strings"
)

// GeoKey IDs (OGC GeoTIFF 1.1, section 7) the reader interprets.
const (
	KeyModelType          = 1024 // GTModelTypeGeoKey: 1 projected, 2 geographic, 3 geocentric
	KeyRasterType         = 1025 // GTRasterTypeGeoKey: 1 PixelIsArea, 2 PixelIsPoint
	KeyCitation           = 1026 // GTCitationGeoKey
	KeyGeodeticCRS        = 2048 // GeodeticCRSGeoKey (GeographicTypeGeoKey in 1.0)
	KeyGeodeticCitation   = 2049 // GeodeticCitationGeoKey
	KeyGeodeticDatum      = 2050 // GeodeticDatumGeoKey
	KeyPrimeMeridian      = 2051 // PrimeMeridianGeoKey
	KeyGeogAngularUnits   = 2054 // GeogAngularUnitsGeoKey
	KeyEllipsoid          = 2056 // EllipsoidGeoKey
	KeyEllipsoidSemiMajor = 2057 // EllipsoidSemiMajorAxisGeoKey
	KeyEllipsoidInvFlat   = 2059 // EllipsoidInvFlatteningGeoKey
	KeyProjectedCRS       = 3072 // ProjectedCRSGeoKey (ProjectedCSTypeGeoKey in 1.0)
	KeyProjectedCitation  = 3073 // ProjectedCitationGeoKey (PCSCitationGeoKey in 1.0)
	KeyProjLinearUnits    = 3076 // ProjLinearUnitsGeoKey
	maxGeoKeys            = 1024
)

// GeoTIFF code values.
const (
	ModelTypeProjected  = 1
	ModelTypeGeographic = 2
	ModelTypeGeocentric = 3
	RasterPixelIsArea   = 1
	RasterPixelIsPoint  = 2
	UserDefined         = 32767
)

// GeoKey is one GeoKey's value: a SHORT code, DOUBLE values or ASCII text,
// as its directory entry says.
type GeoKey struct {
	Code    int
	Doubles []float64
	Text    string
}

// Geo is the georeferencing of a [File]: its model tags and GeoKeys.
type Geo struct {
	// PixelScale is ModelPixelScaleTag (ScaleX, ScaleY, ScaleZ), nil when
	// absent.
	PixelScale []float64
	// Tiepoints is ModelTiepointTag, six values per tiepoint (I, J, K, X,
	// Y, Z), nil when absent.
	Tiepoints []float64
	// Transform is ModelTransformationTag, 16 values row-major, nil when
	// absent.
	Transform []float64
	// Keys are the GeoKeys by ID.
	Keys map[int]GeoKey
}

// Code returns key's SHORT value, 0 when it is absent or not a code.
func (g Geo) Code(key int) int { return g.Keys[key].Code }

// parseGeo reads the georeferencing tags and the GeoKey directory.
func (f *File) parseGeo(entries map[uint16]entry) error {
	var err error
	g := &f.Geo
	if g.PixelScale, err = f.floats(entries, tagModelPixelScale); err != nil {
		return err
	}
	if g.Tiepoints, err = f.floats(entries, tagModelTiepoint); err != nil {
		return err
	}
	if g.Transform, err = f.floats(entries, tagModelTransform); err != nil {
		return err
	}
	dir, err := f.uints(entries, tagGeoKeyDirectory)
	if err != nil || dir == nil {
		return err
	}
	doubles, err := f.floats(entries, tagGeoDoubleParams)
	if err != nil {
		return err
	}
	ascii, _, err := f.text(entries, tagGeoASCIIParams)
	if err != nil {
		return err
	}
	if len(dir) < 4 {
		return errorf("the GeoKey directory holds %d values, fewer than its 4-value header", len(dir))
	}
	n := int(min(dir[3], maxGeoKeys))
	if len(dir) < 4+4*n {
		return errorf("the GeoKey directory lists %d keys but holds %d values", n, len(dir))
	}
	g.Keys = make(map[int]GeoKey, n)
	for i := range n {
		k := dir[4+4*i:]
		id, loc, count, off := int(k[0]), k[1], k[2], k[3]
		switch loc {
		case 0:
			g.Keys[id] = GeoKey{Code: int(off)}
		case tagGeoDoubleParams:
			if off > uint64(len(doubles)) || count > uint64(len(doubles))-off {
				return errorf("GeoKey %d points past the GeoDoubleParams tag", id)
			}
			g.Keys[id] = GeoKey{Doubles: doubles[off : off+count]}
		case tagGeoASCIIParams:
			if off > uint64(len(ascii)) || count > uint64(len(ascii))-off {
				return errorf("GeoKey %d points past the GeoAsciiParams tag", id)
			}
			g.Keys[id] = GeoKey{Text: strings.TrimRight(ascii[off:off+count], "|\x00")}
		case tagGeoKeyDirectory:
			if off > uint64(len(dir)) || count > uint64(len(dir))-off || count == 0 {
				return errorf("GeoKey %d points past the GeoKey directory", id)
			}
			g.Keys[id] = GeoKey{Code: int(dir[off])}
		}
	}
	return nil
}

// GeoTransform returns GDAL's affine geotransform of the image: x = gt[0]
// + col·gt[1] + row·gt[2], y = gt[3] + col·gt[4] + row·gt[5] at the
// top-left corner of pixel (col, row). It is derived from ModelPixelScale
// and one ModelTiepoint, or from ModelTransformation; for PixelIsPoint
// rasters the origin moves by half a pixel up and left, as GDAL does
// (unless told GTIFF_POINT_GEO_IGNORE). A file without either is an error.
func (g Geo) GeoTransform() ([6]float64, error) {
	var gt [6]float64
	switch {
	case len(g.Transform) >= 16:
		m := g.Transform
		gt = [6]float64{m[3], m[0], m[1], m[7], m[4], m[5]}
	case len(g.Tiepoints) >= 6 && len(g.PixelScale) >= 2:
		tp, s := g.Tiepoints, g.PixelScale
		gt = [6]float64{tp[3] - tp[0]*s[0], s[0], 0, tp[4] + tp[1]*s[1], 0, -s[1]}
	case len(g.Tiepoints) >= 6:
		return gt, errorf("the image is georeferenced by %d ground control points, not by a pixel scale or transformation", len(g.Tiepoints)/6)
	default:
		return gt, errorf("the image has no georeferencing (no ModelPixelScale + ModelTiepoint or ModelTransformation tags)")
	}
	for _, v := range gt {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return gt, errorf("the georeferencing holds %v", v)
		}
	}
	if g.Code(KeyRasterType) == RasterPixelIsPoint {
		gt[0] -= 0.5*gt[1] + 0.5*gt[2]
		gt[3] -= 0.5*gt[4] + 0.5*gt[5]
	}
	return gt, nil
}

// String describes the CRS GeoKeys briefly, e.g. "EPSG:32636 (projected)",
// for messages.
func (g Geo) String() string {
	switch g.Code(KeyModelType) {
	case ModelTypeProjected:
		if c := g.Code(KeyProjectedCRS); c != 0 && c != UserDefined {
			return fmt.Sprintf("projected EPSG:%d", c)
		}
		return "a projected CRS"
	case ModelTypeGeographic:
		if c := g.Code(KeyGeodeticCRS); c != 0 && c != UserDefined {
			return fmt.Sprintf("geographic EPSG:%d", c)
		}
		return "a user-defined geographic CRS"
	case ModelTypeGeocentric:
		return "a geocentric CRS"
	case 0:
		return "no CRS"
	}
	return fmt.Sprintf("an unknown model type %d", g.Code(KeyModelType))
}

// IsWGS84 reports whether the GeoKeys describe EPSG:4326 (WGS 84 longitude
// and latitude in degrees): GeodeticCRS 4326, or a user-defined geographic
// CRS whose datum is WGS 84 (6326) or whose ellipsoid is WGS 84 (7030, or
// its axis and flattening), on Greenwich, in degrees. A file without
// GTModelType but with GeodeticCRS 4326 is taken as geographic.
func (g Geo) IsWGS84() bool {
	if g.Code(KeyModelType) == 0 && g.Code(KeyGeodeticCRS) == 4326 {
		return true
	}
	if g.Code(KeyModelType) != ModelTypeGeographic {
		return false
	}
	switch g.Code(KeyGeodeticCRS) {
	case 4326:
		return true
	case UserDefined, 0:
	default:
		return false
	}
	if u := g.Code(KeyGeogAngularUnits); u != 0 && u != 9102 {
		return false
	}
	if pm := g.Code(KeyPrimeMeridian); pm != 0 && pm != 8901 {
		return false
	}
	if g.Code(KeyGeodeticDatum) == 6326 {
		return true
	}
	if g.Code(KeyEllipsoid) == 7030 {
		return true
	}
	a, inv := g.Keys[KeyEllipsoidSemiMajor].Doubles, g.Keys[KeyEllipsoidInvFlat].Doubles
	return len(a) == 1 && len(inv) == 1 && math.Abs(a[0]-6378137) < 1e-3 && math.Abs(inv[0]-298.257223563) < 1e-6
}
