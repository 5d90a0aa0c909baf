package cog

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"testing"
)

// BenchmarkWrite1024Int16 writes a 1,024×1,024 Int16 elevation-like grid
// (two overviews with the default 512-pixel tiles) to io.Discard, with the
// scratch files in a temporary directory. MB/s counts the raw samples.
//
//	go test -run '^$' -bench Write1024 -benchmem ./exporttask/internal/cog/
func BenchmarkWrite1024Int16(b *testing.B) {
	const side = 1024
	img := Image{Width: side, Height: side, BitsPerSample: 16, SampleFormat: 2, West: 34, North: 32, PixelWidth: 1.0 / 3600, PixelHeight: 1.0 / 3600, NoData: "-32768"}
	rows := func(y int, buf []byte) error {
		for x := range side {
			v := 500 + 300*math.Sin(float64(x)/90)*math.Cos(float64(y)/70) + float64((x*7+y*3)%5)
			binary.LittleEndian.PutUint16(buf[2*x:], uint16(int16(v)))
		}
		return nil
	}
	dir := b.TempDir()
	b.SetBytes(side * side * 2)
	b.ReportAllocs()
	var n int64
	for b.Loop() {
		var err error
		n, err = Write(context.Background(), io.Discard, img, rows, dir, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "file-bytes")
}
