package raster

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // tiles may be JPEG
	_ "image/png"  // tiles may be PNG

	_ "golang.org/x/image/webp" // tiles may be WebP
)

// tileFormat names the encoding of a tile by its first bytes: "png",
// "jpeg" or "webp"; "" for anything else.
func tileFormat(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "jpeg"
	case len(b) >= 12 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// checkTile checks that b is a PNG, JPEG or WebP image of TileSize×TileSize
// pixels, reading only its header.
func checkTile(b []byte) error {
	f := tileFormat(b)
	if f == "" {
		n := min(len(b), 8)
		return fmt.Errorf("is not a PNG, JPEG or WebP image (it starts with % x)", b[:n])
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("is a %s image whose header cannot be read: %w", f, err)
	}
	if cfg.Width != TileSize || cfg.Height != TileSize {
		return fmt.Errorf("is a %s image of %d×%d pixels, not %d×%d", f, cfg.Width, cfg.Height, TileSize, TileSize)
	}
	return nil
}
