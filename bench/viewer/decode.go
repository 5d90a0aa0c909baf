package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
)

// decode undoes a Content-Encoding.
func decode(encoding string, b []byte) ([]byte, error) {
	var r io.Reader
	switch encoding {
	case "", "identity":
		return b, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	default:
		return nil, fmt.Errorf("unexpected Content-Encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", encoding, err)
	}
	return out, nil
}
