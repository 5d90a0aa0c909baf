package testkit

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// LegacyDeliveryError is an error text a deliverer recorded for a failed
// attempt before the stores kept the attempt's status code and class, with
// the status code and class the API showed for that text.
type LegacyDeliveryError struct {
	Text       string
	StatusCode int
	Class      exporttask.DeliveryErrorClass
}

// LegacyDeliveryErrors returns the texts the deliverer recorded before,
// and what the API showed for each: the status when the text starts with
// "HTTP " and a status from 100 to 999, else the first class whose words
// the text contains, ignoring case (address refused, timeout, DNS, TLS),
// else CONNECTION; nothing for no text.
func LegacyDeliveryErrors() []LegacyDeliveryError {
	return []LegacyDeliveryError{
		{"", 0, ""},
		{"HTTP 503 Service Unavailable", 503, exporttask.DeliveryErrorHTTPStatus},
		{"HTTP 410 Gone (gave up after 1 attempts over 0s)", 410, exporttask.DeliveryErrorHTTPStatus},
		{`HTTP 307 Temporary Redirect: redirect to "http://10.0.0.1/" not followed`, 307, exporttask.DeliveryErrorHTTPStatus},
		{"HTTP 404 Not Found (gave up after 7 attempts over 24h0m0s)", 404, exporttask.DeliveryErrorHTTPStatus},
		{"HTTP 503", 503, exporttask.DeliveryErrorHTTPStatus},
		{`Post "http://127.0.0.1:9/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, 0, exporttask.DeliveryErrorTimeout},
		{"DIAL TCP 10.0.0.1:443: I/O TIMEOUT", 0, exporttask.DeliveryErrorTimeout},
		{"lookup h: i/o timeout: no such host", 0, exporttask.DeliveryErrorTimeout},
		{`Post "http://127.0.0.1:9/": dial tcp 127.0.0.1:9: connect: connection refused`, 0, exporttask.DeliveryErrorConnection},
		{`Post "http://nope.invalid/": dial tcp: lookup nope.invalid: no such host`, 0, exporttask.DeliveryErrorDNS},
		{`Post "http://h/": dial tcp: lookup h on 10.0.0.53:53: server misbehaving`, 0, exporttask.DeliveryErrorDNS},
		{`Post "https://h/": tls: failed to verify certificate: x509: certificate signed by unknown authority`, 0, exporttask.DeliveryErrorTLS},
		{"remote error: TLS: handshake failure", 0, exporttask.DeliveryErrorTLS},
		{"webhook address not allowed: 127.0.0.1 is loopback", 0, exporttask.DeliveryErrorAddressNotAllowed},
		{`Post "http://10.0.0.1/": webhook address not allowed: 10.0.0.1 is private`, 0, exporttask.DeliveryErrorAddressNotAllowed},
		{"invalid webhook URL: the URL has no host", 0, exporttask.DeliveryErrorAddressNotAllowed},
		{`Invalid Webhook URL: scheme must be http or https, got "ftp" (gave up after 1 attempts over 0s)`, 0, exporttask.DeliveryErrorAddressNotAllowed},
		{"HTTP 5xx", 0, exporttask.DeliveryErrorConnection},
		{"HTTP 099 Odd", 0, exporttask.DeliveryErrorConnection},
		{"HTTP +50 Odd", 0, exporttask.DeliveryErrorConnection},
		{"HTTP 50", 0, exporttask.DeliveryErrorConnection},
		{"http 503 Service Unavailable", 0, exporttask.DeliveryErrorConnection},
	}
}

// CheckDeliveryResultsMigration checks a store's migration number version,
// which adds the last_status_code and last_error_class columns to the
// deliveries table: it takes the database back to the schema before it,
// writes deliveries there as that schema did (the error text alone, one
// given-up delivery per [LegacyDeliveryErrors], one pending and one
// delivered), opens the store again, which migrates, and checks that each
// delivery reads back with the status code and class the API showed for
// its text. open opens the store on its database, the same each time;
// exec runs one statement on that database.
func CheckDeliveryResultsMigration(t *testing.T, version int, open func() taskstore.Store, exec func(statement string)) {
	t.Helper()
	ctx := context.Background()
	s := open()
	task, _, err := s.Create(ctx, CreateParams(Customer, "rec-1"))
	require.NoError(t, err)
	require.NoError(t, s.Close())

	exec(`ALTER TABLE deliveries DROP COLUMN last_status_code`)
	exec(`ALTER TABLE deliveries DROP COLUMN last_error_class`)
	exec(fmt.Sprintf(`DELETE FROM schema_migrations WHERE version = %d`, version))
	insert := func(state int, text string) {
		exec(fmt.Sprintf(`INSERT INTO deliveries (task_id, url, host, event, payload, created_at, next_attempt, state,
			attempts, last_error, done_at) VALUES (%d, 'https://h/x', 'h', 'TASK_STARTED', '{}', 1000, 2000, %d, 1, '%s', 3000)`,
			task.ID, state, strings.ReplaceAll(text, "'", "''")))
	}
	cases := LegacyDeliveryErrors()
	for _, c := range cases {
		insert(2, c.Text) // given up
	}
	insert(0, "dial tcp: connection reset by peer")
	insert(1, "HTTP 503 Service Unavailable") // delivered since

	s = open()
	defer func() { assert.NoError(t, s.Close()) }()
	recs, err := s.ListDeliveries(ctx, Customer, task.ID, 0, 100)
	require.NoError(t, err)
	require.Len(t, recs, len(cases)+2)
	for i, c := range cases {
		got := recs[i]
		assert.Equal(t, c.Text, got.LastError, "the text stays")
		assert.Equal(t, c.StatusCode, got.LastStatusCode, "%q", c.Text)
		assert.Equal(t, c.Class, got.LastErrorClass, "%q", c.Text)
		v := got.View()
		assert.Equal(t, exporttask.DeliveryStatusFailed, v.Status)
		assert.Equal(t, c.StatusCode, v.LastStatusCode, "%q", c.Text)
		assert.Equal(t, c.Class, v.LastError, "%q", c.Text)
	}
	pending, delivered := recs[len(cases)].View(), recs[len(cases)+1].View()
	assert.Equal(t, exporttask.DeliveryStatusPending, pending.Status)
	assert.Equal(t, exporttask.DeliveryErrorConnection, pending.LastError)
	assert.Equal(t, exporttask.DeliveryStatusDelivered, delivered.Status)
	assert.Zero(t, delivered.LastStatusCode, "a delivered delivery shows no failure")
	assert.Empty(t, delivered.LastError)
}

// MigrationFiles counts the migrations (*.sql files) in dir, failing the
// test when there are none.
func MigrationFiles(t *testing.T, dir string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return len(files)
}
