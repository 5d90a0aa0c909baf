// Package hostiletest writes the hostile inputs the exporters' tests feed
// them. Start with [PNG], a PNG of a few dozen bytes whose header
// declares any size.
package hostiletest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// PNG returns a PNG of a few dozen bytes whose header declares w×h 8-bit
// RGBA pixels: the signature, IHDR, an IDAT holding an empty zlib stream,
// and IEND. A decoder that trusts the header allocates 4·w·h bytes.
func PNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		b.Write(n[:])
		c := append([]byte(typ), data...)
		b.Write(c)
		binary.BigEndian.PutUint32(n[:], crc32.ChecksumIEEE(c))
		b.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // bit depth 8, colour type RGBA
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}
