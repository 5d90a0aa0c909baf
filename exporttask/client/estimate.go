package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Estimate asks what creating req would cost (POST /export-tasks/estimate):
// the server checks req as a create and answers the estimated size and
// time, the bytes the create would count against the quota, the quota
// left and whether the create fits in it, and the types of the artifacts
// the export would write; it stores nothing. A request the create would refuse
// is refused the same way (an *[exporttask.Problem] with its problems).
func (c *Client) Estimate(ctx context.Context, req exporttask.CreateRequest) (exporttask.DryRun, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return exporttask.DryRun{}, fmt.Errorf("client: encoding the estimate request: %w", err)
	}
	r, err := c.newRequest(ctx, http.MethodPost, c.base.JoinPath("export-tasks", "estimate"), bytes.NewReader(body))
	if err != nil {
		return exporttask.DryRun{}, err
	}
	r.Header.Set("Content-Type", "application/json")
	var d exporttask.DryRun
	_, err = c.do(r, http.StatusOK, &d)
	return d, err
}
