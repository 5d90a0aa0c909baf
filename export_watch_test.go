package viewer

// OnReload makes the router's watcher call f after each reload it makes,
// instead of logging failures. Call it before Setup.
func OnReload(r *OpenapiViewerRouter, f func(error)) { r.watch.onReload = f }

// WatchDone returns a channel closed when the watcher has stopped, or nil
// when none was started.
func WatchDone(r *OpenapiViewerRouter) <-chan struct{} { return r.watch.done }
