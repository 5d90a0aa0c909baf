package storekit

import "fmt"

// Options holds the settings of a store's Open that every store takes. A
// store's own options type embeds it.
type Options struct {
	// MaxRunning is the most tasks of one customer leased at once (see
	// [Tx.Claimable]); 0 is no limit.
	MaxRunning int
}

// Check reports a setting of o that is out of range.
func (o Options) Check() error {
	if o.MaxRunning < 0 {
		return fmt.Errorf("the most running tasks per customer must not be negative, got %d", o.MaxRunning)
	}
	return nil
}

// BuildOptions applies opts, in order, to o (which holds the store's
// defaults) and returns the result once its Check passes.
func BuildOptions[O interface{ Check() error }, F ~func(*O)](o O, opts []F) (O, error) {
	for _, opt := range opts {
		opt(&o)
	}
	if err := o.Check(); err != nil {
		var zero O
		return zero, err
	}
	return o, nil
}
