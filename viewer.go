package viewer

import (
	"net/http"
	"sync"
	"sync/atomic"
)

// OpenapiViewerRouter serves Swagger UI for one or more OpenAPI documents,
// and the documents themselves as JSON and YAML. Make one with [New], call
// [OpenapiViewerRouter.Setup] once, then mount [OpenapiViewerRouter.GetRouter]
// (or use [OpenapiViewerRouter.Middleware], or the router itself, which is an
// http.Handler). Any number of routers can live in one program: they share
// nothing.
type OpenapiViewerRouter struct {
	cfg   Config
	mu    sync.Mutex                  // serialises Setup, Reload and Close
	state atomic.Pointer[routerState] // nil until Setup succeeds
	watch watcher                     // Config.Watch's polling, when on
}

// New returns a router for cfg. Nothing is read or checked until Setup.
func New(cfg Config) *OpenapiViewerRouter {
	return &OpenapiViewerRouter{cfg: cfg}
}

// NewHandler is New followed by Setup, for the common case:
//
//	docs, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "openapi.yaml", UIPath: "/docs"})
func NewHandler(cfg Config) (http.Handler, error) {
	r := New(cfg)
	if err := r.Setup(); err != nil {
		return nil, err
	}
	return r, nil
}

// Setup reads and checks the documents, precomputes every response and
// builds the routes. It returns an error for any problem with the Config or
// a document (a *SpecError names the file and, when known, the line), and
// then leaves the router unusable; it may be called again. Once Setup has
// succeeded, a further call returns ErrAlreadySetup.
//
// Setup compresses nothing: each response is compressed when a request
// first asks for that encoding (brotli or gzip, not both), once, and a
// router compresses one response at a time, so that a docs page costs
// memory only once it is viewed, and then a bounded amount. The YAML form
// of a document is likewise made on its first request.
func (r *OpenapiViewerRouter) Setup() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state.Load() != nil {
		return ErrAlreadySetup
	}
	st, err := build(r.cfg, nil)
	if err != nil {
		return err
	}
	r.state.Store(st)
	r.startWatch()
	return nil
}

// GetRouter returns the handler to mount at the application's root, e.g.
// mux.Handle("/", router.GetRouter()). It answers the viewer's paths and
// 404 for any other. It panics if Setup has not succeeded: call Setup
// first. (The router itself is the same handler and can be mounted before
// Setup; it answers 503 until Setup succeeds, see ServeHTTP.)
func (r *OpenapiViewerRouter) GetRouter() http.Handler {
	r.mustState("GetRouter")
	return r
}

// ServeHTTP answers the viewer's paths (GET and HEAD; 405 with Allow for
// other methods) and 404 for any other path. Until Setup has succeeded
// (before it, while it runs, or after it failed) it answers every request
// with 503 Service Unavailable and a plain-text body, so a router mounted
// before its Setup neither panics nor drops connections.
func (r *OpenapiViewerRouter) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	st := r.state.Load()
	if st == nil {
		http.Error(w, "503 service unavailable: the API documentation is not set up (viewer: Setup has not succeeded)", http.StatusServiceUnavailable)
		return
	}
	if rt := st.match(req); rt != nil {
		rt.serve(w, req)
		return
	}
	http.NotFound(w, req)
}

// Middleware returns a handler that answers the viewer's paths and passes
// every other request to next, unchanged. It panics if Setup has not
// succeeded. Each request is answered from the documents current when it
// arrives (see [OpenapiViewerRouter.Reload]).
func (r *OpenapiViewerRouter) Middleware(next http.Handler) http.Handler {
	r.mustState("Middleware")
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if rt := r.state.Load().match(req); rt != nil {
			rt.serve(w, req)
			return
		}
		next.ServeHTTP(w, req)
	})
}

func (r *OpenapiViewerRouter) mustState(method string) *routerState {
	st := r.state.Load()
	if st == nil {
		panic("viewer: " + method + " called before a successful Setup: call Setup first and check its error")
	}
	return st
}
