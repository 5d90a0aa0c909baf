package exporttask

import (
	"fmt"
	"time"
)

// TimeLayout is the wire format of every timestamp: RFC 3339 in UTC with
// millisecond precision, e.g. 2026-11-21T09:30:00.000Z.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Time is a timestamp that encodes as [TimeLayout]; the zero Time, unknown,
// is left out of the JSON (fields are tagged omitzero).
type Time struct{ time.Time }

// NewTime returns t in UTC to the millisecond, as the API stores it.
func NewTime(t time.Time) Time {
	if t.IsZero() {
		return Time{}
	}
	return Time{t.UTC().Truncate(time.Millisecond)}
}

// MarshalJSON writes the time as a JSON string in [TimeLayout].
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(TimeLayout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, TimeLayout)
	return append(b, '"'), nil
}

// UnmarshalJSON reads any RFC 3339 time, in UTC to the millisecond.
func (t *Time) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("exporttask: time must be an RFC 3339 string, got %s", b)
	}
	v, err := time.Parse(time.RFC3339Nano, string(b[1:len(b)-1]))
	if err != nil {
		return fmt.Errorf("exporttask: time must be an RFC 3339 string: %w", err)
	}
	*t = NewTime(v)
	return nil
}
