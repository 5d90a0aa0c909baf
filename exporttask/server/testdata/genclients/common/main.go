// The part every program shares, copied by TestGeneratedClients next to
// the program's run.go: the command line, and the client that sends the
// API key.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"gentest/api"

	openapi_types "github.com/oapi-codegen/runtime/types"
)

// recordID is the demo catalog's RASTER record.
var recordID = openapi_types.UUID{0x8b, 0x86, 0x75, 0x44, 0x2d, 0xab, 0x43, 0xa1, 0xbe, 0x6e, 0xf2, 0x3e, 0xc8, 0x3c, 0x19, 0xb4}

// main takes the server's URL and an API key, runs the program's run and
// exits 1 with its error.
func main() {
	ctx := context.Background()
	c, err := api.NewClientWithResponses(os.Args[1], api.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("x-api-key", os.Args[2])
		return nil
	}))
	if err == nil {
		err = run(ctx, c)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}
