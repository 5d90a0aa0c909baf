package exporttask

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/jsonscan"
)

// UnmarshalJSON reads a task as MarshalJSON writes it, in either shape,
// keeping numbers exact as DecodeCreateRequest does.
func (t *Task) UnmarshalJSON(b []byte) error {
	type plain Task // without this method
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var p plain
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("exporttask: decoding a task: %w", err)
	}
	jsonscan.ExactNumbers(p.Keywords)
	jsonscan.ExactNumbers(p.Parameters)
	if p.ROI != nil {
		for _, f := range p.ROI.Features {
			jsonscan.ExactNumbers(f.Properties)
		}
	}
	hooks, v170, err := v170Webhooks(b)
	if err != nil {
		return err
	}
	if v170 {
		p.Webhook, p.Shape = hooks, ShapeV170
	}
	*t = Task(p)
	return nil
}
