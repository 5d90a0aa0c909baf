package exportio

import (
	"path"
	"sort"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// The STAC version and extensions a METADATA artifact declares.
const (
	STACVersion        = "1.0.0"
	stacProjExtension  = "https://stac-extensions.github.io/projection/v1.1.0/schema.json"
	stacFileExtension  = "https://stac-extensions.github.io/file/v2.1.0/schema.json"
	sha256MultihashTag = "1220" // multihash: sha2-256 (0x12), 32 bytes (0x20)
)

// PropertyPrefix starts the names of the properties of a METADATA Item that
// no STAC extension defines: "exporttask:recordID" and "exporttask:domain"
// in every Item, and each domain's own ("exporttask:maxZoom", ...).
const PropertyPrefix = "exporttask:"

// STACItem is the METADATA artifact of every domain: a STAC 1.0.0 Item
// (a GeoJSON Feature) with the projection and file extensions. Its
// geometry and bbox are the exported area; its assets are the export's
// other files, each with its size and SHA-256 as a multihash.
type STACItem struct {
	Type           string               `json:"type"`
	STACVersion    string               `json:"stac_version"`
	STACExtensions []string             `json:"stac_extensions"`
	ID             string               `json:"id"`
	Geometry       *exporttask.Geometry `json:"geometry"`
	BBox           []float64            `json:"bbox"`
	Properties     map[string]any       `json:"properties"`
	Links          []STACLink           `json:"links"`
	Assets         map[string]STACAsset `json:"assets"`
}

// STACLink is a link of a STAC Item.
type STACLink struct {
	Href string `json:"href"`
	Rel  string `json:"rel"`
	Type string `json:"type,omitempty"`
}

// STACAsset is one file of an export in its METADATA Item. Href is the
// file's name, relative to the METADATA file, which the service serves
// beside it.
type STACAsset struct {
	Href         string   `json:"href"`
	Type         string   `json:"type,omitempty"`
	Title        string   `json:"title,omitempty"`
	Roles        []string `json:"roles"`
	FileSize     int64    `json:"file:size"`
	FileChecksum string   `json:"file:checksum"`
	// ProjShape and ProjTransform are the projection extension's grid of
	// a raster data asset: [height, width] in pixels, and the affine
	// transform [a, b, c, d, e, f] taking pixel (col, row) to
	// (a·col + b·row + c, d·col + e·row + f) in degrees.
	ProjShape     []int     `json:"proj:shape,omitempty"`
	ProjTransform []float64 `json:"proj:transform,omitempty"`
}

// Grid is the pixel grid of a raster data artifact in EPSG:4326: its size
// in pixels, its top-left corner and its pixel size in degrees.
type Grid struct {
	Width, Height           int
	West, North             float64
	PixelWidth, PixelHeight float64
}

// ItemParams are what a domain knows of its export for its METADATA Item.
type ItemParams struct {
	// Record is the exported record.
	Record catalog.Record
	// Area is the exported area's geometry and BBox its box, written
	// [west, south, east, north].
	Area *exporttask.Geometry
	BBox geom.BBox
	// Time is when the export was made: the Item's datetime and created.
	// The exported data carry no acquisition time, so the Item is dated
	// by the export.
	Time time.Time
	// Artifacts are the export's other files: the METADATA file cannot
	// hold its own size and checksum, so it is no asset of its own Item.
	Artifacts []exporttask.Artifact
	// Properties are the domain's own, named without PropertyPrefix.
	Properties map[string]any
	// Grid, when set, is the grid of the data artifacts (role "data"),
	// which their assets give as proj:shape and proj:transform.
	Grid *Grid
}

// NewItem builds the METADATA Item of an export. Its id is the record's id
// followed by the export time, so two exports of one record differ. Its
// properties are datetime and created (p.Time, UTC), proj:epsg 4326, the
// record's title as title when it has one, "exporttask:recordID",
// "exporttask:domain", and p.Properties under [PropertyPrefix]; p.Grid
// goes to the data assets. Its links
// are empty: the Item is a file beside the others, which its assets name
// by relative href.
func NewItem(p ItemParams) STACItem {
	props := map[string]any{
		"datetime":                  p.Time.UTC().Format(time.RFC3339Nano),
		"created":                   p.Time.UTC().Format(time.RFC3339Nano),
		"proj:epsg":                 4326,
		PropertyPrefix + "recordID": p.Record.ID,
		PropertyPrefix + "domain":   p.Record.Domain,
	}
	if p.Record.Title != "" {
		props["title"] = p.Record.Title
	}
	for k, v := range p.Properties {
		props[PropertyPrefix+k] = v
	}
	assets := make(map[string]STACAsset, len(p.Artifacts))
	for _, a := range p.Artifacts {
		asset := STACAsset{
			Href: a.Name, Type: MediaType(a), Roles: []string{Role(a.Type)},
			FileSize: a.Size, FileChecksum: sha256MultihashTag + a.SHA256,
		}
		if g := p.Grid; g != nil && asset.Roles[0] == "data" {
			asset.ProjShape = []int{g.Height, g.Width}
			asset.ProjTransform = []float64{g.PixelWidth, 0, g.West, 0, -g.PixelHeight, g.North}
		}
		assets[a.Name] = asset
	}
	return STACItem{
		Type: "Feature", STACVersion: STACVersion,
		STACExtensions: []string{stacProjExtension, stacFileExtension},
		ID:             p.Record.ID + "-" + p.Time.UTC().Format("20060102T150405.000Z"),
		Geometry:       p.Area,
		BBox:           []float64{p.BBox.West, p.BBox.South, p.BBox.East, p.BBox.North},
		Properties:     props,
		Links:          []STACLink{},
		Assets:         assets,
	}
}

// Role is the STAC role of an artifact of type t: "data" for the exported
// data, "thumbnail" for the thumbnails, "metadata" for the rest (the ROI,
// a legend).
func Role(t exporttask.ArtifactType) string {
	switch t {
	case exporttask.ArtifactGPKG, exporttask.ArtifactModel, exporttask.Artifact3DModel:
		return "data"
	case exporttask.ArtifactThumbnailsSmall, exporttask.ArtifactThumbnailsMedium, exporttask.ArtifactThumbnailsLarge:
		return "thumbnail"
	}
	return "metadata"
}

// MediaType is the media type of an artifact as its STAC asset gives it.
func MediaType(a exporttask.Artifact) string {
	switch a.Type {
	case exporttask.ArtifactGPKG:
		return "application/geopackage+sqlite3"
	case exporttask.ArtifactModel:
		return "image/tiff; application=geotiff; profile=cloud-optimized"
	case exporttask.Artifact3DModel:
		return "application/zip"
	}
	switch path.Ext(a.Name) {
	case ".png":
		return "image/png"
	case ".geojson":
		return "application/geo+json"
	case ".json":
		return "application/json"
	}
	return "application/octet-stream"
}

// AssetNames returns the item's asset keys in order, for stable output in
// tests and listings.
func (it STACItem) AssetNames() []string {
	names := make([]string, 0, len(it.Assets))
	for n := range it.Assets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
