package exporttask

import (
	"encoding/json"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
	"github.com/openapi-viewer/viewer/exporttask/internal/recordid"
)

// Validate checks every rule of a create request (required members,
// [Domains], [CRS4326], the limits, a valid GeoJSON region of interest,
// webhooks with http or https URLs and known events) and returns nil or a
// *[ValidationError] listing all the problems at once. An empty string,
// map or slice counts as missing.
func (r *CreateRequest) Validate() error {
	var p problems
	r.validate(&p)
	return p.err()
}

// validate adds to p the problems of r, each with the JSON Pointer of the
// field it is about. The rules:
//
//   - catalogRecordID is required and is a UUID in its textual form
//     (8-4-4-4-12 hexadecimal digits, either case; [DecodeCreateRequest]
//     turns it to lower case);
//   - domain is required and one of [Domains];
//   - artifactCRS is required and is [CRS4326];
//   - description has at most [MaxDescriptionLength] characters;
//   - keywords and parameters have at most [MaxMapEntries] keys, each
//     non-empty and at most [MaxKeyLength] characters, each value at most
//     [MaxValueBytes] bytes of JSON;
//   - ROI, when present, follows the GeoJSON rules listed at
//     [FeatureCollection], and its polygons are
//     valid: each ring encloses an area and neither crosses nor touches
//     itself, the rings of a polygon neither cross nor touch each other
//     (stricter than OGC Simple Features, which lets rings touch at a
//     point), each hole lies inside the exterior ring and outside the
//     other holes; a region so intricate that this check would compare
//     more than ringPairBudget pairs of edges is refused;
//   - webhook (webhooks in the v1.7.0 Shape) has 1 to [MaxWebhooks] entries, each with an absolute http or
//     https URL with a host, at most [MaxURLLength] bytes, and 1 to
//     [MaxWebhookEvents] distinct known events.
//
// An empty string, map or slice counts as missing.
func (r *CreateRequest) validate(p *problems) {
	switch {
	case r.CatalogRecordID == "":
		p.add("/catalogRecordID", "is required")
	case !validRecordID(r.CatalogRecordID):
		p.add("/catalogRecordID", "must be a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05, got %s",
			quoted.Short(r.CatalogRecordID))
	}
	switch {
	case r.Domain == "":
		p.add("/domain", "is required")
	case !r.Domain.Valid():
		p.add("/domain", `must be one of "DEM", "3D", "RASTER", got %s`, quoted.Short(string(r.Domain)))
	}
	switch {
	case r.ArtifactCRS == "":
		p.add("/artifactCRS", "is required")
	case r.ArtifactCRS != CRS4326:
		p.add("/artifactCRS", `must be "4326" (WGS 84), got %s`, quoted.Short(r.ArtifactCRS))
	}
	if n := utf8.RuneCountInString(r.Description); n > MaxDescriptionLength {
		p.add("/description", "is %d characters long; at most %d are allowed", n, MaxDescriptionLength)
	}
	validateMap(p, "/keywords", r.Keywords)
	validateMap(p, "/parameters", r.Parameters)
	if r.ROI != nil {
		validateROI(p, "/ROI", r.ROI)
	}
	validateWebhooks(p, "/"+r.Shape.WebhookMember(), r.Webhook)
}

// validateMap checks a free-form object (keywords, parameters, feature
// properties) against the size limits.
func validateMap(p *problems, ptr string, m map[string]any) {
	if len(m) > MaxMapEntries {
		p.add(ptr, "has %d keys; at most %d are allowed", len(m), MaxMapEntries)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		at := child(ptr, k)
		switch n := utf8.RuneCountInString(k); {
		case n == 0:
			p.add(at, "a key must not be empty")
		case n > MaxKeyLength:
			p.add(at, "the key is %d characters long; at most %d are allowed", n, MaxKeyLength)
		}
		b, err := json.Marshal(m[k])
		switch {
		case err != nil:
			p.add(at, "the value cannot be encoded as JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
		case len(b) > MaxValueBytes:
			p.add(at, "the value is %d bytes of JSON; at most %d are allowed", len(b), MaxValueBytes)
		}
	}
}

// validRecordID reports whether id is a catalog record id: a UUID in
// either case.
func validRecordID(id string) bool {
	_, ok := recordid.Canonical(id)
	return ok
}
