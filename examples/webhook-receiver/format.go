package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// eventLine is the line printed for a delivery: when the event happened,
// the delivery id, the event, and the task's id, status, progress, error
// reason (when there is one) and artifacts.
func eventLine(deliveryID string, p exporttask.EventPayload) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s delivery %s: %s task %d %s %d%%",
		p.Timestamp.UTC().Format(exporttask.TimeLayout), deliveryID, p.Event, p.Data.ID, p.Data.Status, p.Data.Progress)
	if p.Data.ErrorReason != "" {
		fmt.Fprintf(&b, " errorReason %q", p.Data.ErrorReason)
	}
	if len(p.Data.Artifacts) == 0 {
		b.WriteString(" artifacts: none")
		return b.String()
	}
	b.WriteString(" artifacts: ")
	for i, a := range p.Data.Artifacts {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s, %s)", a.Name, a.Type, byteSize(a.Size))
	}
	return b.String()
}

// byteSize writes n bytes in SI units with three significant digits at
// most: 812 B, 12.3 kB, 1.23 MB.
func byteSize(n int64) string {
	if n < 1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"kB", "MB", "GB", "TB", "PB", "EB"}
	v, i := float64(n)/1000, 0
	for v >= 999.5 && i < len(units)-1 {
		v /= 1000
		i++
	}
	return strconv.FormatFloat(v, 'f', decimals(v), 64) + " " + units[i]
}

// decimals keeps three significant digits of v ≥ 1: 1.23, 12.3, 123.
func decimals(v float64) int {
	switch {
	case v < 9.995:
		return 2
	case v < 99.95:
		return 1
	default:
		return 0
	}
}
