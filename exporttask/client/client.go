package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// DefaultWaitInterval is how often [Client.Wait] reads the task when it
// is given no poll interval: each poll is one GET request to the service.
const DefaultWaitInterval = time.Second

// Client calls the export task API. Its methods return a
// *[exporttask.Problem] (find it with errors.As) when the server answers
// with an error status, and a wrapped transport error when the request could
// not be made. A Client is safe for concurrent use.
type Client struct {
	base *url.URL
	key  string
	hc   *http.Client
}

// Option configures a [Client].
type Option func(*Client)

// WithHTTPClient makes the client send its requests with hc. Default
// [http.DefaultClient].
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) { c.hc = hc }
}

// New returns a client of the API at baseURL (e.g.
// "http://localhost:8080", possibly with a path prefix) that authenticates
// with apiKey.
func New(baseURL, apiKey string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("client: client base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("client: client base URL %q is not an absolute http(s) URL", baseURL)
	}
	c := &Client{base: u, key: apiKey, hc: http.DefaultClient}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// CreateOption configures one [Client.Create] call.
type CreateOption func(*http.Request)

// WithIdempotencyKey sends key as the Idempotency-Key header, so that
// retrying the create returns the task the first attempt created.
func WithIdempotencyKey(key string) CreateOption {
	return func(r *http.Request) { r.Header.Set(exporttask.IdempotencyKeyHeader, key) }
}

// Create asks for an export. It returns the new task, or the existing one
// when the request repeats an earlier one.
func (c *Client) Create(ctx context.Context, req exporttask.CreateRequest, opts ...CreateOption) (exporttask.Task, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("client: encoding the create request: %w", err)
	}
	r, err := c.newRequest(ctx, http.MethodPost, c.base.JoinPath("export-tasks"), bytes.NewReader(body))
	if err != nil {
		return exporttask.Task{}, err
	}
	r.Header.Set("Content-Type", "application/json")
	for _, o := range opts {
		o(r)
	}
	var t exporttask.Task
	_, err = c.do(r, http.StatusCreated, &t)
	return t, err
}

// Get returns the task with that id.
func (c *Client) Get(ctx context.Context, id int64) (exporttask.Task, error) {
	r, err := c.newRequest(ctx, http.MethodGet, c.taskURL(id), nil)
	if err != nil {
		return exporttask.Task{}, err
	}
	var t exporttask.Task
	_, err = c.do(r, http.StatusOK, &t)
	return t, err
}

// Abort sends DELETE for the task with that id. A live task moves to
// ABORTED and is returned. The server dismisses a task already in a final
// status (removes it and its files; it is not found after): Abort then
// returns an error wrapping [ErrDismissed].
func (c *Client) Abort(ctx context.Context, id int64) (exporttask.Task, error) {
	r, err := c.newRequest(ctx, http.MethodDelete, c.taskURL(id), nil)
	if err != nil {
		return exporttask.Task{}, err
	}
	var t exporttask.Task
	_, err = c.do(r, http.StatusOK, &t)
	if p := (*exporttask.Problem)(nil); errors.As(err, &p) && p.Status == http.StatusNoContent {
		return exporttask.Task{}, fmt.Errorf("client: task %d: %w", id, ErrDismissed)
	}
	return t, err
}

// ErrDismissed reports that a DELETE dismissed a task that was already
// final, rather than aborting it.
var ErrDismissed = errors.New("client: the task was final and is dismissed")

// ListOptions selects a page of tasks for [Client.List].
type ListOptions struct {
	// Limit is the page size, 1 to 100. Default (0): the server's, 10.
	Limit int
	// Status keeps only tasks in that status. Default: any status.
	Status exporttask.Status
	// Cursor is the next cursor of the previous page. Default: the first
	// page.
	Cursor string
}

// List returns a page of tasks, newest first, and the cursor of the next
// page ("" on the last page).
func (c *Client) List(ctx context.Context, o ListOptions) (tasks []exporttask.Task, next string, err error) {
	u := c.base.JoinPath("export-tasks")
	q := url.Values{}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Status != "" {
		q.Set("status", string(o.Status))
	}
	return getPage[exporttask.Task](ctx, c, u, q, o.Cursor)
}

// getPage GETs the page of a list at u with query q (plus cursor, when not
// empty) and returns its items and the cursor of the next page ("" on the
// last page).
func getPage[T any](ctx context.Context, c *Client, u *url.URL, q url.Values, cursor string) (items []T, next string, err error) {
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	u.RawQuery = q.Encode()
	r, err := c.newRequest(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", err
	}
	h, err := c.do(r, http.StatusOK, &items)
	if err != nil {
		return nil, "", err
	}
	return items, nextCursor(h.Get("Link")), nil
}

// Wait reads the task every poll interval ([DefaultWaitInterval] when
// poll is 0 or less) until its status is final, and returns it. It stops early with an error when ctx is done or a
// poll fails; the task it returns then is the last one it read (zero if
// none).
func (c *Client) Wait(ctx context.Context, id int64, poll time.Duration) (exporttask.Task, error) {
	if poll <= 0 {
		poll = DefaultWaitInterval
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	var last exporttask.Task
	for {
		t, err := c.Get(ctx, id)
		if err != nil {
			return last, err
		}
		last = t
		if t.Status.Final() {
			return t, nil
		}
		select {
		case <-ctx.Done():
			return t, fmt.Errorf("client: waiting for task %d (%s): %w", id, t.Status, ctx.Err())
		case <-tick.C:
		}
	}
}

func (c *Client) taskURL(id int64) *url.URL {
	return c.base.JoinPath("export-tasks", strconv.FormatInt(id, 10))
}

func (c *Client) newRequest(ctx context.Context, method string, u *url.URL, body io.Reader) (*http.Request, error) {
	r, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("client: building %s %s: %w", method, u.Path, err)
	}
	r.Header.Set("Accept", "application/json, "+exporttask.ProblemContentType)
	if c.key != "" {
		r.Header.Set("Authorization", "Bearer "+c.key)
	}
	return r, nil
}

// do sends r and decodes a response with status want into v (a
// *[]exporttask.Task is read one task at a time, see [MaxItemBytes]); any
// other status becomes a *Problem.
func (c *Client) do(r *http.Request, want int, v any) (http.Header, error) {
	resp, err := c.hc.Do(r)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", r.Method, r.URL.Path, err)
	}
	defer resp.Body.Close()
	body := newItemLimitReader(resp.Body, MaxItemBytes)
	if resp.StatusCode != want {
		b, err := io.ReadAll(body)
		if err != nil {
			return nil, fmt.Errorf("client: %s %s: reading the response: %w", r.Method, r.URL.Path, err)
		}
		return nil, responseProblem(resp, b)
	}
	if tasks, ok := v.(*[]exporttask.Task); ok {
		*tasks, err = decodeTasks(body)
	} else {
		err = decodeOne(body, v)
	}
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: decoding the response: %w", r.Method, r.URL.Path, err)
	}
	return resp.Header, nil
}

// responseProblem returns the problem a failed response carries, or one
// made from its status when the body is not a problem.
func responseProblem(resp *http.Response, body []byte) *exporttask.Problem {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == exporttask.ProblemContentType || mt == "application/json" {
		var p exporttask.Problem
		if err := json.Unmarshal(body, &p); err == nil && p.Status != 0 {
			return &p
		}
	}
	detail := strings.TrimSpace(string(body))
	if len(detail) > 200 {
		detail = detail[:200]
	}
	return &exporttask.Problem{Type: "about:blank", Title: http.StatusText(resp.StatusCode), Status: resp.StatusCode,
		Detail: detail, Message: detail}
}

// nextCursor returns the cursor of the rel="next" link of a Link header.
func nextCursor(link string) string {
	for _, l := range strings.Split(link, ",") {
		target, params, ok := strings.Cut(strings.TrimSpace(l), ";")
		if !ok || !isNextRel(params) {
			continue
		}
		target = strings.TrimSpace(target)
		if !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			continue
		}
		u, err := url.Parse(target[1 : len(target)-1])
		if err != nil {
			continue
		}
		return u.Query().Get("cursor")
	}
	return ""
}

func isNextRel(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(k, "rel") {
			for _, rel := range strings.Fields(strings.Trim(v, `"`)) {
				if strings.EqualFold(rel, "next") {
					return true
				}
			}
		}
	}
	return false
}
