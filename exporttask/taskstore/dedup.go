package taskstore

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// DedupKey returns a key that is equal for two requests exactly when they
// ask for the same export: the same catalogRecordID (compared in lower
// case, as UUIDs are), domain, artifactCRS, ROI and parameters.
// Description, keywords and webhooks do not count. Maps are encoded with
// sorted keys, so key order does not matter; numbers are compared by their
// text they were written with, so 9007199254740993 and 9007199254740992
// differ, and so do 1 and 1.0.
func DedupKey(r exporttask.CreateRequest) (string, error) {
	b, err := json.Marshal(struct {
		ID         string                        `json:"i"`
		Domain     exporttask.Domain             `json:"d"`
		CRS        string                        `json:"c"`
		ROI        *exporttask.FeatureCollection `json:"r"`
		Parameters map[string]any                `json:"p"`
	}{strings.ToLower(r.CatalogRecordID), r.Domain, r.ArtifactCRS, r.ROI, r.Parameters})
	if err != nil {
		return "", fmt.Errorf("taskstore: computing the dedup key: %w", err)
	}
	return hexSum(string(b)), nil
}
