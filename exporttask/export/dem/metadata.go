package dem

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// NoDataValue is a nodata value in METADATA ("exporttask:noData"): a JSON
// number, or, for a floating-point source whose nodata JSON numbers cannot
// hold, the strings the STAC raster extension uses for them: "nan",
// "inf" and "-inf".
type NoDataValue float64

// MarshalJSON writes the number, or "nan", "inf" or "-inf".
func (v NoDataValue) MarshalJSON() ([]byte, error) {
	f := float64(v)
	switch {
	case math.IsNaN(f):
		return []byte(`"nan"`), nil
	case math.IsInf(f, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-inf"`), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads a number, or "nan", "inf" or "-inf" (in any case,
// so the "NaN" of earlier exports too).
func (v *NoDataValue) UnmarshalJSON(b []byte) error {
	var text string
	if json.Unmarshal(b, &text) == nil {
		switch strings.ToLower(text) {
		case "nan":
			*v = NoDataValue(math.NaN())
		case "inf":
			*v = NoDataValue(math.Inf(1))
		case "-inf":
			*v = NoDataValue(math.Inf(-1))
		default:
			return fmt.Errorf("dem: nodata %q is neither a number nor nan, inf or -inf", text)
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("dem: nodata %s is not a number", b)
	}
	*v = NoDataValue(f)
	return nil
}

// metadata returns the METADATA artifact, a STAC Item (see
// [exportio.NewItem]) made at now whose assets are arts, the export's
// other files; inside counts the GeoTIFF's pixels holding an elevation.
// Its DEM properties are listed in the package documentation.
func (p *plan) metadata(j export.Job, inside int64, arts []exporttask.Artifact, now time.Time) exportio.STACItem {
	img := p.img
	nd, _ := geotiff.ParseNoData(img.NoData)
	south, east := img.North-float64(img.Height)*img.PixelHeight, img.West+float64(img.Width)*img.PixelWidth
	return exportio.NewItem(exportio.ItemParams{
		Record: j.Record(), Area: j.Area(), BBox: j.Box(),
		Time: now, Artifacts: arts,
		Grid: &exportio.Grid{Width: img.Width, Height: img.Height, West: img.West, North: img.North,
			PixelWidth: img.PixelWidth, PixelHeight: img.PixelHeight},
		Properties: map[string]any{
			"width":       img.Width,
			"height":      img.Height,
			"resolution":  img.PixelWidth,
			"pixelHeight": img.PixelHeight,
			"gridBBox":    [4]float64{img.West, south, east, img.North},
			"sampleType":  string(p.src.typ),
			"noData":      NoDataValue(nd),
			"dataPixels":  inside,
			"compression": "deflate",
		},
	})
}

// roiSize is the length of the ROI's JSON as the ROI artifact writes it.
func roiSize(j export.Job) int64 {
	b, err := exportio.MarshalIndent(exportio.ROI(j.Request(), j.Record()))
	if err != nil {
		return 0
	}
	return int64(len(b))
}
