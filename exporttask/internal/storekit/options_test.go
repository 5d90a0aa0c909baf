package storekit_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// storeOptions is a store's options type: the common ones and its own.
type storeOptions struct {
	storekit.Options
	hold int
}

func (o storeOptions) Check() error {
	if err := o.Options.Check(); err != nil {
		return err
	}
	if o.hold <= 0 {
		return errors.New("hold must be positive")
	}
	return nil
}

type storeOption func(*storeOptions)

func TestBuildOptions(t *testing.T) {
	setMax := func(n int) storeOption { return func(o *storeOptions) { o.MaxRunning = n } }
	setHold := func(n int) storeOption { return func(o *storeOptions) { o.hold = n } }

	o, err := storekit.BuildOptions(storeOptions{hold: 30}, []storeOption(nil))
	require.NoError(t, err)
	assert.Equal(t, storeOptions{hold: 30}, o, "the defaults")

	o, err = storekit.BuildOptions(storeOptions{hold: 30}, []storeOption{setMax(2), setHold(5), setMax(3)})
	require.NoError(t, err)
	assert.Equal(t, storeOptions{Options: storekit.Options{MaxRunning: 3}, hold: 5}, o, "applied in order")

	o, err = storekit.BuildOptions(storeOptions{hold: 30}, []storeOption{setMax(-1)})
	assert.EqualError(t, err, "the most running tasks per customer must not be negative, got -1")
	assert.Zero(t, o)

	_, err = storekit.BuildOptions(storeOptions{hold: 30}, []storeOption{setHold(0)})
	assert.EqualError(t, err, "hold must be positive", "the store's own check")
}
