package storekit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestSQLStoreErrors: every method's error starts with the store's name and
// says what failed, wrapping the cause.
func TestSQLStoreErrors(t *testing.T) {
	boom := errors.New("boom")
	s := storekit.NewSQLStore(failingDialect{boom}, 0)
	ctx, now := t.Context(), time.Unix(0, 0)
	errOf := func(_ any, err error) error { return err }
	errOf2 := func(_ any, _ bool, err error) error { return err }
	for _, c := range []struct {
		err  error
		want string
	}{
		{errOf(s.Get(ctx, "acme", 7)), "mystore: get task 7: boom"},
		{errOf2(s.List(ctx, taskstore.ListParams{Customer: "acme", Limit: 1})), "mystore: list tasks: boom"},
		{errOf(s.Abort(ctx, "acme", 7, now)), "mystore: abort task 7: boom"},
		{s.Dismiss(ctx, "acme", 7), "mystore: dismiss task 7: boom"},
		{errOf2(s.Claim(ctx, "w", now, time.Minute)), "mystore: claim task: boom"},
		{errOf(s.Progress(ctx, 7, "w", 5, now, time.Minute)), "mystore: progress of task 7: boom"},
		{errOf(s.ReleaseForRetry(ctx, 7, "w", now, time.Minute)), "mystore: release task 7 for a retry: boom"},
		{errOf(s.Finish(ctx, 7, "w", taskstore.FinishParams{}, now)), "mystore: finish task 7: boom"},
		{errOf(s.Expire(ctx, now, 1)), "mystore: expire tasks: boom"},
		{errOf(s.ClaimDeliveries(ctx, taskstore.DeliveryClaim{Limit: 1})), "mystore: claim deliveries: boom"},
		{s.DeliveryDone(ctx, 3, taskstore.DeliveryResult{}), "mystore: delivery 3 done: boom"},
		{errOf(s.PruneDeliveries(ctx, now, 1)), "mystore: prune deliveries: boom"},
		{errOf(s.ListDeliveries(ctx, "acme", 7, 0, 1)), "mystore: list deliveries of task 7: boom"},
		{errOf(s.Redeliver(ctx, "acme", 7, 3, now)), "mystore: redeliver 3 of task 7: boom"},
		{errOf(s.Stats(ctx)), "mystore: counting tasks: boom"},
	} {
		assert.EqualError(t, c.err, c.want)
	}
	_, err := s.ReleaseForRetry(ctx, 7, "w", now, -time.Second)
	assert.EqualError(t, err, "mystore: release task 7 for a retry: the retry delay -1s is negative")
}

// row is a row whose Scan fails with err.
type row struct{ err error }

func (r row) Scan(...any) error { return r.err }

// failingDialect is a dialect named "mystore" whose every call fails with
// err.
type failingDialect struct{ err error }

func (failingDialect) Name() string { return "mystore" }
func (failingDialect) Statements() *storekit.Statements {
	return storekit.NewStatements(storekit.Syntax{})
}
func (d failingDialect) Write(context.Context, func(storekit.Tx) error) error {
	return d.err
}
func (d failingDialect) Query(context.Context, string, ...any) (storekit.Rows, func(), error) {
	return nil, nil, d.err
}
func (d failingDialect) TaskRow(context.Context, string, int64) storekit.Scanner { return row{d.err} }
func (failingDialect) NoRows() error                                             { return errors.New("no rows") }
func (d failingDialect) Usage(context.Context, string) (int64, error)            { return 0, d.err }
