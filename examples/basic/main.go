// Command basic serves Swagger UI for any OpenAPI file, with the raw
// document beside it:
//
//	go run ./examples/basic -spec testdata/wild/petstore-expanded.yaml
//	curl -i http://localhost:8081/docs/
//	curl http://localhost:8081/openapi.yaml
//
// Open the printed URL in a browser. With -watch, the spec files (the one
// given and every file its $refs name) are checked twice a second, and an
// edit shows on the next page load:
//
//	go run ./examples/basic -watch -spec testdata/wild/redocly-cafe/openapi.yaml
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	viewer "github.com/openapi-viewer/viewer"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, nil); err != nil {
		log.Fatal(err)
	}
}

// run serves the viewer until ctx is done. ready, when not nil, receives
// the listening address.
func run(ctx context.Context, args []string, out io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("basic", flag.ContinueOnError)
	spec := fs.String("spec", "testdata/wild/petstore-expanded.yaml", "OpenAPI document (YAML or JSON)")
	addr := fs.String("addr", "localhost:8081", "address to listen on")
	uiPath := fs.String("ui", "/docs", "where Swagger UI is served")
	rawPath := fs.String("raw", "/openapi", "base of the raw document's URLs (.json, .yaml, .yml)")
	watch := fs.Bool("watch", false, "reload the spec when one of its files changes (for development)")
	theme := fs.String("theme", "auto", `color scheme: "auto" (the browser's preference), "light" or "dark"`)
	if err := fs.Parse(args); err != nil {
		return err
	}

	cfg := viewer.Config{FilePathOrSpec: viewer.File(*spec), UIPath: *uiPath, RawPath: *rawPath, Theme: *theme}
	if *watch {
		cfg.Watch = 500 * time.Millisecond
	}
	docs := viewer.New(cfg)
	if err := docs.Setup(); err != nil {
		return err
	}
	defer docs.Close() // stops the watching; it always returns nil
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", *addr, err)
	}
	srv := &http.Server{Handler: docs, ReadHeaderTimeout: 5 * time.Second}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(out, "Swagger UI: %s%s/\nDocument:   %s%s.json, .yaml, .yml\n", base, *uiPath, base, *rawPath)
	if ready != nil {
		ready <- ln.Addr().String()
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
