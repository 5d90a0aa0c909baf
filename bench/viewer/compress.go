package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
)

// Compression as the viewer's: gzip at best compression, brotli at quality
// 9 with a 4 MB window, so that the bare handler sends the same bytes.
const (
	brotliQuality = 9
	brotliLGWin   = 22
)

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		panic(fmt.Sprintf("bench/viewer: gzip level: %v", err))
	}
	_, _ = w.Write(b) // writes to a bytes.Buffer do not fail
	_ = w.Close()
	return buf.Bytes()
}

func brotliBytes(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotliQuality, LGWin: brotliLGWin})
	_, _ = w.Write(b) // writes to a bytes.Buffer do not fail
	_ = w.Close()
	return buf.Bytes()
}

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
