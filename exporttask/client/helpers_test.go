package client_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/server"
)

// readKey is a read-only key of the test customer.
const readKey = "read-only-key"

// harness is a test server with a client whose every response is checked
// against the OpenAPI description.
type harness struct {
	*exporttasktest.Server
	hc     *http.Client   // checks responses
	client *client.Client // uses hc, with the read+write key
	sink   string         // URL of a webhook receiver that accepts everything
}

func newHarness(t *testing.T, opts ...exporttasktest.Option) *harness {
	t.Helper()
	opts = append([]exporttasktest.Option{exporttasktest.WithKeys(
		server.APIKey{Key: readKey, Customer: exporttasktest.Customer, Scopes: server.ScopeRead},
	)}, opts...)
	srv := exporttasktest.NewServer(t, opts...)
	hc := &http.Client{Transport: testkit.NewSpecChecker(t).Transport(http.DefaultTransport)}
	cl, err := client.New(srv.URL, srv.Key, client.WithHTTPClient(hc))
	require.NoError(t, err)
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(sink.Close)
	return &harness{Server: srv, hc: hc, client: cl, sink: sink.URL + "/sink"}
}

// sampleRequest is a valid create request whose webhook goes to the sink.
func (h *harness) sampleRequest(n int) exporttask.CreateRequest {
	return testkit.SampleRequestTo(n, h.sink)
}

// create creates a task with the checked client, failing t on error.
func (h *harness) create(t *testing.T, req exporttask.CreateRequest) exporttask.Task {
	t.Helper()
	task, err := h.client.Create(t.Context(), req)
	require.NoError(t, err)
	return task
}
