package catalog

import (
	"crypto/rand"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/recordid"
)

// ParseID returns id in canonical lower case when it is a UUID in the
// 8-4-4-4-12 hexadecimal form (either case), else an error naming it.
// Version and variant are not checked.
func ParseID(id string) (string, error) {
	canon, ok := recordid.Canonical(id)
	if !ok {
		return "", fmt.Errorf("catalog: %q is not a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05", id)
	}
	return canon, nil
}

// NewID returns a random (version 4) UUID in canonical lower case.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])  // never fails (Go 1.24+)
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 9562 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
