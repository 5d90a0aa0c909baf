package viewer

import (
	"net/http"
	"path"
	"strings"
	"sync"
)

// routerState is everything Setup built. It is read-only afterwards, but
// for the compressed variants (and the YAML), made on first request.
type routerState struct {
	routes map[string]*route // by cleaned path
	// work is held while one of the router's responses is compressed or
	// built on first use, so that these run one after another: at most one
	// encoder's memory is in use at a time, whatever the requests.
	work  sync.Mutex
	files []string // the files the documents were read from, for Config.Watch
	ui    *uiDist  // the Swagger UI served, read once by Setup and kept by Reload
}

// route is what one path answers.
type route struct {
	res      *resource   // the body, for a served path
	redirect string      // the relative Location, for UIPath without its slash
	lastSeg  string      // for a redirect: the request path must end with "/"+lastSeg
	allow    []string    // the Allow header for 405
	work     *sync.Mutex // the router's routerState.work
}

// match finds the route for a request, or nil. The path is cleaned first
// ("." and ".." segments, repeated slashes), so no spelling of a path
// reaches anything outside the routes; a path with a backslash or an
// encoded slash is never the viewer's.
func (st *routerState) match(req *http.Request) *route {
	p := req.URL.Path
	if p == "" || p[0] != '/' || strings.IndexByte(p, '\\') >= 0 {
		return nil
	}
	if raw := req.URL.RawPath; raw != "" && (strings.Contains(raw, "%2f") || strings.Contains(raw, "%2F") ||
		strings.Contains(raw, "%5c") || strings.Contains(raw, "%5C")) {
		return nil
	}
	clean := path.Clean(p)
	if p[len(p)-1] == '/' && clean != "/" {
		clean += "/"
	}
	rt := st.routes[clean]
	if rt != nil && rt.redirect != "" && !strings.HasSuffix(p, "/"+rt.lastSeg) {
		// The relative Location resolves against the path as requested;
		// with a trailing "." or ".." it would resolve elsewhere.
		return nil
	}
	return rt
}

func (rt *route) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		w.Header()["Allow"] = rt.allow
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if rt.redirect != "" {
		loc := rt.redirect
		if req.URL.RawQuery != "" {
			loc += "?" + req.URL.RawQuery
		}
		w.Header().Set("Location", loc)
		w.WriteHeader(http.StatusMovedPermanently)
		return
	}
	rt.res.serve(w, req, rt.work)
}
