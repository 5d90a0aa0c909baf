package dem

import (
	"encoding/json"
	"math"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/exportio"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// Metadata is the content of the METADATA artifact.
type Metadata struct {
	Record exportio.MetadataRecord       `json:"record"`
	ROI    *exporttask.FeatureCollection `json:"roi"`
	// BBox is the GeoTIFF's extent, [west, south, east, north] in degrees.
	BBox exportio.BBox `json:"bbox"`
	CRS  string        `json:"crs"`
	// Resolution is the pixel width in degrees; PixelHeight the pixel
	// height (equal to it for square pixels).
	Resolution  float64 `json:"resolution"`
	PixelHeight float64 `json:"pixelHeight"`
	Width       int     `json:"width"`
	Height      int     `json:"height"`
	// SampleType is the GeoTIFF's sample type, the source's: Int8, Byte,
	// Int16, UInt16, Int32, UInt32, Float32 or Float64.
	SampleType string `json:"sampleType"`
	// DataPixels counts the pixels with an elevation; the others hold NoData.
	DataPixels  int64                       `json:"dataPixels"`
	NoData      NoDataValue                 `json:"noData"`
	Compression string                      `json:"compression"`
	Artifacts   []exportio.MetadataArtifact `json:"artifacts"`
}

// NoDataValue is a nodata value in METADATA: a JSON number, or the string
// "NaN" for a floating-point source whose nodata is NaN (JSON has no NaN).
type NoDataValue float64

// MarshalJSON writes the number, or "NaN".
func (v NoDataValue) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(v)) {
		return []byte(`"NaN"`), nil
	}
	return json.Marshal(float64(v))
}

// UnmarshalJSON reads a number or "NaN".
func (v *NoDataValue) UnmarshalJSON(b []byte) error {
	if string(b) == `"NaN"` {
		*v = NoDataValue(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*v = NoDataValue(f)
	return nil
}

func (p *plan) metadata(j export.Job, roi *exporttask.FeatureCollection, inside int64, arts []exporttask.Artifact) Metadata {
	img := p.img
	nd, _ := geotiff.ParseNoData(img.NoData)
	return Metadata{
		Record: exportio.MetadataRecord{ID: j.Record.ID, Domain: j.Record.Domain, Title: j.Record.Title},
		ROI:    roi,
		BBox: exportio.BBox{img.West, img.North - float64(img.Height)*img.PixelHeight,
			img.West + float64(img.Width)*img.PixelWidth, img.North},
		CRS:        exporttask.CRS4326,
		Resolution: img.PixelWidth, PixelHeight: img.PixelHeight, Width: img.Width, Height: img.Height,
		SampleType: string(p.src.typ),
		DataPixels: inside, NoData: NoDataValue(nd), Compression: "deflate",
		Artifacts: exportio.MetadataArtifacts(arts),
	}
}

// roiSize is the length of the ROI's JSON as the ROI artifact writes it.
func roiSize(j export.Job) int64 {
	b, err := exportio.MarshalIndent(exportio.ROI(j.Request, j.Record))
	if err != nil {
		return 0
	}
	return int64(len(b))
}
