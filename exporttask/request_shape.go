package exporttask

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// RequestShape is the published API version a create request was written
// for: v1.6.5 names the webhook array "webhook", v1.7.0 "webhooks". A task
// is answered in the shape of the request that created it.
type RequestShape uint8

const (
	ShapeV165 RequestShape = iota // v1.6.5: "webhook"; the zero value
	ShapeV170                     // v1.7.0: "webhooks"
)

// WebhookMember returns the name of the webhook array in shape s.
func (s RequestShape) WebhookMember() string {
	if s == ShapeV170 {
		return "webhooks"
	}
	return "webhook"
}

// String returns the version the shape was published in: "v1.6.5" or
// "v1.7.0".
func (s RequestShape) String() string {
	if s == ShapeV170 {
		return "v1.7.0"
	}
	return "v1.6.5"
}

// renameWebhookMember renames the task's "webhook" member to "webhooks" in
// b, a task encoded by [Task.MarshalJSON] in the v1.6.5 shape. The task's
// own member is the last `"webhook":` in b: the members encoded after it
// (the estimates, status, errorReason, progress, attempts, artifacts and
// times) are numbers, strings, whose quotes are escaped, and artifacts,
// whose member names are fixed; a "webhook" key in keywords, parameters or
// the ROI's properties comes before it.
func renameWebhookMember(b []byte) ([]byte, error) {
	const name = `"webhook":`
	i := bytes.LastIndex(b, []byte(name))
	if i < 0 {
		return nil, fmt.Errorf("exporttask: encoding a task: no %s member", name)
	}
	out := make([]byte, 0, len(b)+1)
	out = append(out, b[:i+len(name)-2]...)
	out = append(out, 's')
	return append(out, b[i+len(name)-2:]...), nil
}

// v170Webhooks reads the "webhooks" member of a task encoded in the
// v1.7.0 shape; ok is false when b has none.
func v170Webhooks(b []byte) (hooks []Webhook, ok bool, err error) {
	if !bytes.Contains(b, []byte(`"webhooks"`)) {
		return nil, false, nil // the common case: no second pass
	}
	var v struct {
		Webhooks *[]Webhook `json:"webhooks"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, false, fmt.Errorf("exporttask: decoding a task's webhooks: %w", err)
	}
	if v.Webhooks == nil {
		return nil, false, nil
	}
	return *v.Webhooks, true, nil
}
