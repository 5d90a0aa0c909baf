package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	httpSwagger "github.com/swaggo/http-swagger/v2"

	"github.com/openapi-viewer/viewer"
)

// serverNames are the servers compared, in table order.
func serverNames() []string { return []string{"viewer", "http-swagger", "bare", "bare+headers"} }

// newHandler builds one of the servers for a document (spec: the source
// file, for the viewer; set: the same document as JSON and the viewer's
// page files, for the others). It also returns the page's path.
func newHandler(name, spec string, set *contentSet) (http.Handler, string, error) {
	switch name {
	case "viewer":
		h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: spec, UIPath: "/docs"})
		return h, "/docs/", err
	case "http-swagger":
		return newHTTPSwagger(set.spec()), "/swagger/index.html", nil
	case "bare":
		return newBare(set, false), "/docs/", nil
	case "bare+headers":
		return newBare(set, true), "/docs/", nil
	}
	return nil, "", fmt.Errorf("unknown server %q", name)
}

// newHTTPSwagger serves Swagger UI with http-swagger the way its README
// shows, and the document from a handler of its own, as an application
// that does not use swag's generated docs would: plain bytes, no
// compression, no ETag.
func newHTTPSwagger(spec []byte) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /swagger/spec.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(spec)
	})
	mux.Handle("/swagger/", httpSwagger.Handler(httpSwagger.URL("/swagger/spec.json")))
	return mux
}

// server is one of the compared servers, listening on loopback.
type server struct {
	name    string
	pageURL string
	srv     *http.Server
	done    chan struct{}
}

// listen serves h on a loopback port.
func listen(name string, h http.Handler, page string) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	s := &server{
		name:    name,
		pageURL: "http://" + ln.Addr().String() + page,
		srv:     &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		done:    make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Printf("%s: %v\n", name, err)
		}
	}()
	return s, nil
}

func (s *server) close() {
	_ = s.srv.Close()
	<-s.done
}
