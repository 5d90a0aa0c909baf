package viewer

import (
	"errors"
	"io/fs"

	"github.com/openapi-viewer/viewer/internal/specdoc"
)

// documentLoader is what the router needs of document loading: reading,
// bundling, converting and checking a document, and telling when the
// files it was read from change. internal/specdoc's Loader is the one the
// router uses.
type documentLoader interface {
	// Load reads, bundles, converts and checks one document (see
	// specdoc.Loader.Load).
	Load(v any, fsys fs.FS, field string, ui specdoc.UIVersion) (*specdoc.Document, error)
	// Stamp returns what a poll compares of files now, read from fsys when
	// it is not nil.
	Stamp(fsys fs.FS, files []string) specdoc.Stamps
	// UnreadFile returns the file that err, from Load, says could not be
	// read.
	UnreadFile(err error) (name string, ok bool)
}

// loadSpec loads one document with docs. field names the config field it
// comes from, for errors; ui is the version of the Swagger UI that will
// render it, which decides the OpenAPI versions accepted. A File or Bytes
// value is given to the loader as its File or as []byte; a problem with the
// document is returned as a *SpecError, one with the value as an error that
// wraps ErrInvalidConfig, each with the loader's text.
func loadSpec(docs documentLoader, v any, fsys fs.FS, field string, ui specdoc.UIVersion) (*specdoc.Document, error) {
	switch s := v.(type) {
	case File:
		v = specdoc.File(s)
	case Bytes:
		v = []byte(s)
	}
	doc, err := docs.Load(v, fsys, field, ui)
	if err != nil {
		var (
			specErr   *specdoc.Error
			configErr *specdoc.ConfigError
		)
		switch {
		case errors.As(err, &specErr):
			return nil, &SpecError{Source: specErr.Source, Line: specErr.Line, Err: specErr.Err}
		case errors.As(err, &configErr):
			return nil, configErrorf("%s", configErr.Msg)
		}
		return nil, err
	}
	doc.JSON = compact(doc.JSON)
	return doc, nil
}
