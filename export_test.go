package viewer

// WaitWarmed blocks until the background compression that Setup started
// is done, so benchmarks measure one thing at a time.
func WaitWarmed(r *OpenapiViewerRouter) { <-r.state.Load().warmed }
