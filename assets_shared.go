package viewer

import (
	"sync"

	swguistatic "github.com/swaggest/swgui/v5/static"
)

// embeddedUIModule is the Go module the default Swagger UI comes from, with
// the package whose files the viewer reads.
const embeddedUIModule = "github.com/swaggest/swgui/v5/static"

// embeddedUI holds the default Swagger UI distribution (Config.SwaggerUI
// nil), the same for every router. It is the package's only package-level
// value, and it is read-only: built on first use, never changed after, so
// routers cannot affect one another through it. Sharing it means a program
// with many routers reads and compresses Swagger UI's files once, not once
// per router, and keeps one copy of the results.
var embeddedUI = sync.OnceValues(func() (*uiDist, error) {
	return loadUIDist(swguistatic.FS, embeddedUIModule)
})

// assetSet maps a file name to its resource.
type assetSet map[string]*resource
