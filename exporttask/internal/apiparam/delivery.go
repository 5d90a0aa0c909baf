package apiparam

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseDeliveryID reads a delivery id as the API writes it: a decimal
// integer from 1 up in canonical form, as [ParseTaskID]. The error names
// the path parameter "deliveryId".
func ParseDeliveryID(s string) (int64, error) {
	id, err := parseCanonicalID(s)
	if err != nil {
		return 0, fmt.Errorf("deliveryId %w", err)
	}
	return id, nil
}

// FormatDeliveryCursor returns the cursor of the page of a task's
// deliveries that starts after delivery id after: the unpadded base64url
// encoding of "a" followed by the id in decimal (the cursor for 7 is
// "YTc"). Clients treat it as opaque.
func FormatDeliveryCursor(after int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("a" + strconv.FormatInt(after, 10)))
}

// ParseDeliveryCursor reads a cursor written by [FormatDeliveryCursor]
// and returns the delivery id the page starts after. The error names the
// query parameter "cursor".
func ParseDeliveryCursor(c string) (int64, error) {
	const opaque = "cursor is not one this server returned in a Link header"
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, fmt.Errorf("%s: it is not unpadded base64url", opaque)
	}
	rest, ok := strings.CutPrefix(string(b), "a")
	if !ok {
		return 0, errors.New(opaque + ": it is not a cursor of a delivery list")
	}
	id, err := parseCanonicalID(rest)
	if err != nil {
		return 0, fmt.Errorf("%s: its delivery id %w", opaque, err)
	}
	return id, nil
}
