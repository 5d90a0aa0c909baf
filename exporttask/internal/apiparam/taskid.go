package apiparam

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
)

// ParseTaskID reads a task id as the API writes it: a decimal integer from
// 1 to the largest int64, in canonical form (digits only, no sign, no
// leading zero), so that one task has one URL. "+1", "01", "1.5", " 1" and
// "1e0" are refused. The error names the path parameter "id" and is meant
// for the client as it is.
func ParseTaskID(s string) (int64, error) {
	id, err := parseCanonicalID(s)
	if err != nil {
		return 0, fmt.Errorf("id %w", err)
	}
	return id, nil
}

// parseCanonicalID does the work of ParseTaskID; its errors read after the
// name of what was parsed.
func parseCanonicalID(s string) (int64, error) {
	const maxID = int64(1<<63 - 1)
	if s == "" {
		return 0, errors.New("is empty; it must be a task id, a decimal integer from 1 up")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("must be a decimal integer written with digits only, got %s", quoted.Short(s))
		}
	}
	if s[0] == '0' {
		return 0, fmt.Errorf("must be a decimal integer from 1 up without leading zeros, got %s", quoted.Short(s))
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil { // only a range error is left
		return 0, fmt.Errorf("is out of range (1 to %d), got %s", maxID, quoted.Short(s))
	}
	return id, nil
}

// FormatCursor returns the cursor of the list page that starts below task
// id before: the unpadded base64url encoding of "b" followed by the id in
// decimal (so the cursor for 41 is "YjQx"). Clients treat it as opaque.
func FormatCursor(before int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("b" + strconv.FormatInt(before, 10)))
}

// ParseCursor reads a cursor written by [FormatCursor] and returns the id
// the page starts below. The error names the query parameter "cursor".
func ParseCursor(c string) (int64, error) {
	const opaque = "cursor is not one this server returned in a Link header"
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, fmt.Errorf("%s: it is not unpadded base64url", opaque)
	}
	rest, ok := strings.CutPrefix(string(b), "b")
	if !ok {
		return 0, fmt.Errorf("%s: it does not start with the version byte", opaque)
	}
	id, err := parseCanonicalID(rest)
	if err != nil {
		return 0, fmt.Errorf("%s: its task id %w", opaque, err)
	}
	return id, nil
}
