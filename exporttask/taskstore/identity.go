package taskstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Identity is what a create is known by, computed once per create (by
// [Identify]) and carried to the store in [CreateParams]: the dedup key,
// which finds an equivalent live task, and the fingerprint recorded with
// an Idempotency-Key, which says whether a create that repeats the key
// repeats the request it was first sent with. Both include the version
// of the source data the export reads, so that the same request after the
// catalog record was registered again with other data is neither a
// duplicate nor a replay of the export made from the old data.
type Identity struct {
	// Dedup is equal for two creates exactly when they ask for the same
	// export ([DedupKey]) of the same version of the source's data.
	Dedup string
	// Fingerprint is equal for two creates exactly when their requests
	// decode to the same values (description, keywords and webhooks
	// included; see [RequestFingerprint]) and read the same version of
	// the source's data. It is the request's fingerprint when the version
	// is empty, else the request's fingerprint, a dot and the hex SHA-256
	// of the version, so that [SameRequestOtherData] can tell a changed
	// body from changed data. Keys stored before versions were part of
	// the fingerprint hold the request's fingerprint alone.
	Fingerprint string
}

// Identify returns the identity of a create of r whose export reads
// source data of the given version (export.Estimate.SourceVersion;
// empty when the exporter does not know it).
func Identify(r exporttask.CreateRequest, version string) (Identity, error) {
	dedup, err := DedupKey(r)
	if err != nil {
		return Identity{}, err
	}
	fp, err := RequestFingerprint(r)
	if err != nil {
		return Identity{}, err
	}
	if version == "" {
		return Identity{Dedup: dedup, Fingerprint: fp}, nil
	}
	return Identity{
		Dedup:       hexSum(dedup + "\x00" + version),
		Fingerprint: fp + "." + hexSum(version),
	}, nil
}

// RequestFingerprint returns the hex SHA-256 of r's JSON encoding. Two
// requests have the same fingerprint when they decode to the same values,
// whatever the spacing and member order of their bodies; any other
// difference (description and keywords included) makes another
// fingerprint. It is an [Identity.Fingerprint] without a data version.
func RequestFingerprint(r exporttask.CreateRequest) (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", fmt.Errorf("taskstore: fingerprinting a request: %w", err)
	}
	return hexSum(string(b)), nil
}

// SameRequestOtherData reports whether two different fingerprints
// ([Identity.Fingerprint]) are of the same request over other versions of
// the source's data. A fingerprint without a version (recorded before
// versions were part of it, or for an exporter that knows none) counts as
// another version than any non-empty one: the store cannot tell which data
// that key's task was made from, so it does not replay it for data that
// may differ.
func SameRequestOtherData(stored, asked string) bool {
	if stored == asked {
		return false
	}
	s, _, _ := strings.Cut(stored, ".")
	a, _, _ := strings.Cut(asked, ".")
	return s == a
}

// hexSum is the hex SHA-256 of s.
func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
