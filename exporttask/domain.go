package exporttask

// Domain is the kind of product a task exports.
type Domain string

// The domains. All three are supported (the reference service rejects DEM
// and 3D).
const (
	DomainDEM    Domain = "DEM"
	Domain3D     Domain = "3D"
	DomainRaster Domain = "RASTER"
)

// Domains lists every domain, in the order the API documents them.
func Domains() []Domain { return []Domain{DomainDEM, Domain3D, DomainRaster} }

// Valid reports whether d is one of the documented domains.
func (d Domain) Valid() bool {
	switch d {
	case DomainDEM, Domain3D, DomainRaster:
		return true
	}
	return false
}

// CRS4326 is the only supported artifactCRS (WGS 84 longitude/latitude).
const CRS4326 = "4326"

// ArtifactType names what an artifact file holds.
type ArtifactType string

// The artifact types. Which ones a domain produces is given by
// [ArtifactTypes].
const (
	ArtifactGPKG             ArtifactType = "GPKG"
	ArtifactLegend           ArtifactType = "LEGEND"
	ArtifactMetadata         ArtifactType = "METADATA"
	ArtifactThumbnailsSmall  ArtifactType = "THUMBNAILS_SMALL"
	ArtifactThumbnailsMedium ArtifactType = "THUMBNAILS_MEDIUM"
	ArtifactThumbnailsLarge  ArtifactType = "THUMBNAILS_LARGE"
	ArtifactModel            ArtifactType = "MODEL"
	ArtifactROI              ArtifactType = "ROI"
	Artifact3DModel          ArtifactType = "3D_MODEL"
)

// ArtifactTypes returns the artifact types a domain can produce, in the
// order the API documents them; nil for an unknown domain.
func ArtifactTypes(d Domain) []ArtifactType {
	switch d {
	case DomainRaster:
		return []ArtifactType{ArtifactGPKG, ArtifactLegend, ArtifactMetadata,
			ArtifactThumbnailsSmall, ArtifactThumbnailsMedium, ArtifactThumbnailsLarge}
	case DomainDEM:
		return []ArtifactType{ArtifactModel, ArtifactMetadata, ArtifactROI, ArtifactLegend}
	case Domain3D:
		return []ArtifactType{Artifact3DModel, ArtifactMetadata,
			ArtifactThumbnailsSmall, ArtifactThumbnailsMedium, ArtifactThumbnailsLarge}
	}
	return nil
}
