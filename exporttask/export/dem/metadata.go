package dem

import (
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
	BBox       exportio.BBox `json:"bbox"`
	CRS        string        `json:"crs"`
	Resolution float64       `json:"resolution"` // degrees per pixel
	Width      int           `json:"width"`
	Height     int           `json:"height"`
	// DataPixels counts the pixels with an elevation; the others hold NoData.
	DataPixels  int64                       `json:"dataPixels"`
	NoData      float64                     `json:"noData"`
	Compression string                      `json:"compression"`
	Artifacts   []exportio.MetadataArtifact `json:"artifacts"`
}

func (p *plan) metadata(j export.Job, roi *exporttask.FeatureCollection, inside int64, arts []exporttask.Artifact) Metadata {
	img := p.img
	compression := "none"
	if img.Compression == geotiff.Deflate {
		compression = "deflate"
	}
	return Metadata{
		Record:     exportio.MetadataRecord{ID: j.Record.ID, Domain: j.Record.Domain, Title: j.Record.Title},
		ROI:        roi,
		BBox:       exportio.BBox{img.West, img.North - float64(img.Height)*img.PixelSize, img.West + float64(img.Width)*img.PixelSize, img.North},
		CRS:        exporttask.CRS4326,
		Resolution: img.PixelSize, Width: img.Width, Height: img.Height,
		DataPixels: inside, NoData: NoData, Compression: compression,
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
