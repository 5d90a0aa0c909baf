package viewer

import "errors"

// ErrNotSetup is returned by Reload before a successful Setup.
var ErrNotSetup = errors.New("viewer: Reload called before a successful Setup")

// Reload reads the documents again (with every file their $refs name),
// rebuilds every response as Setup does, and swaps the new set in at once:
// a request is answered wholly from the old set or wholly from the new one,
// and requests already being answered finish with the old one. When
// anything fails (a file is missing, a document is invalid), Reload returns
// the error, as Setup would, and the router keeps serving the old set.
// Reload is safe to call from any goroutine, at any time after Setup.
func (r *OpenapiViewerRouter) Reload() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reloadLocked()
}

func (r *OpenapiViewerRouter) reloadLocked() error {
	old := r.state.Load()
	if old == nil {
		return ErrNotSetup
	}
	st, err := build(r.cfg, old.ui)
	if err != nil {
		return err
	}
	r.state.Store(st)
	return nil
}
