package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/openapi-viewer/viewer/exporttask"
)

// DeliveryListOptions selects a page of a task's webhook deliveries for
// [Client.Deliveries].
type DeliveryListOptions struct {
	// Limit is the page size, 1 to 100. Default (0): the server's, 10.
	Limit int
	// Cursor is the next cursor of the previous page. Default: the first
	// page.
	Cursor string
}

// Deliveries returns a page of the webhook deliveries of the task with
// that id, oldest first, each with its outcome, and the cursor of the next
// page ("" on the last page).
func (c *Client) Deliveries(ctx context.Context, id int64, o DeliveryListOptions) (ds []exporttask.WebhookDelivery, next string, err error) {
	u := c.taskURL(id).JoinPath("deliveries")
	q := url.Values{}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	return getPage[exporttask.WebhookDelivery](ctx, c, u, q, o.Cursor)
}

// Redeliver asks for delivery deliveryID of the task with that id to be
// made again: a new delivery of the same event and body to the same URL,
// which it returns, pending. The server refuses with a 409
// *exporttask.Problem (type [exporttask.ProblemTypeDeliveryPending]) while
// a delivery of that event to that URL is pending.
func (c *Client) Redeliver(ctx context.Context, id, deliveryID int64) (exporttask.WebhookDelivery, error) {
	u := c.taskURL(id).JoinPath("deliveries", strconv.FormatInt(deliveryID, 10), "redeliver")
	r, err := c.newRequest(ctx, http.MethodPost, u, nil)
	if err != nil {
		return exporttask.WebhookDelivery{}, err
	}
	var d exporttask.WebhookDelivery
	_, err = c.do(r, http.StatusAccepted, &d)
	return d, err
}
