package testkit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// SpecChecker validates responses against exporttask/openapi.yaml: status
// documented for the operation, headers and body matching their schemas.
type SpecChecker struct {
	t      testing.TB
	router routers.Router

	mu      sync.Mutex
	checked int // responses validated against an operation
}

// NewSpecChecker loads the embedded OpenAPI description; it fails t when
// the description is not valid.
func NewSpecChecker(t testing.TB) *SpecChecker {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(exporttask.OpenAPI())
	require.NoError(t, err, "loading openapi.yaml")
	require.NoError(t, doc.Validate(loader.Context), "openapi.yaml is not a valid OpenAPI document")
	doc.Servers = nil // match requests to any host (test servers listen on random ports)
	router, err := gorillamux.NewRouter(doc)
	require.NoError(t, err)
	return &SpecChecker{t: t, router: router}
}

// Check validates resp, the answer to req, and leaves its body readable. It
// may run outside the test's goroutine, so it reports with Errorf.
// Paths and methods the description has no operation for (unknown paths,
// 405s, the docs) are not checked here: the handler tests check them.
func (c *SpecChecker) Check(req *http.Request, resp *http.Response) {
	c.t.Helper()
	route, params, err := c.router.FindRoute(req)
	if errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed) {
		return
	}
	if err != nil {
		c.t.Errorf("finding the operation of %s %s: %v", req.Method, req.URL, err)
		return
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Errorf("reading the response to %s %s: %v", req.Method, req.URL, err)
		return
	}
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: resp.StatusCode,
		Header: resp.Header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		c.t.Errorf("response %d to %s %s does not match openapi.yaml: %v\nbody: %s",
			resp.StatusCode, req.Method, req.URL.RequestURI(), err, truncate(body))
	}
	c.mu.Lock()
	c.checked++
	c.mu.Unlock()
}

// Count returns how many responses were validated against an operation.
func (c *SpecChecker) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.checked
}

// Transport returns a RoundTripper that checks every response.
func (c *SpecChecker) Transport(base http.RoundTripper) http.RoundTripper {
	return checkingTransport{base: base, c: c}
}

type checkingTransport struct {
	base http.RoundTripper
	c    *SpecChecker
}

func (t checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	t.c.Check(req, resp)
	return resp, nil
}

func truncate(b []byte) string {
	s := string(b)
	if len(s) > 2000 {
		s = s[:2000] + "..."
	}
	return strings.TrimSpace(s)
}
