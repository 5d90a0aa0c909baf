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
// Compressing Swagger UI's assets takes a few hundred milliseconds of CPU;
// Setup starts it in the background instead of waiting for it, and a request
// that arrives first waits only for the variant it needs.
func (r *OpenapiViewerRouter) Setup() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state.Load() != nil {
		return ErrAlreadySetup
	}
	st, err := build(r.cfg)
	if err != nil {
		return err
	}
	r.state.Store(st)
	go st.warm()
	r.startWatch()
	return nil
}

// GetRouter returns the handler to mount at the application's root, e.g.
// mux.Handle("/", router.GetRouter()). It answers the viewer's paths and
// 404 for any other. It panics if Setup has not succeeded.
func (r *OpenapiViewerRouter) GetRouter() http.Handler {
	r.mustState("GetRouter")
	return r
}

// ServeHTTP answers the viewer's paths (GET and HEAD; 405 with Allow for
// other methods) and 404 for any other path. It panics if Setup has not
// succeeded.
func (r *OpenapiViewerRouter) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	st := r.mustState("ServeHTTP")
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
