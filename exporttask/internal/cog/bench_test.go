package cog

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"testing"
)

// smoothInt16 is elevation-like test data: a smooth surface with a little
// noise, so the compression has work to do.
func smoothInt16(width int) Rows {
	return func(y int, buf []byte) error {
		for x := range width {
			v := 500 + 300*math.Sin(float64(x)/90)*math.Cos(float64(y)/70) + float64((x*7+y*3)%5)
			binary.LittleEndian.PutUint16(buf[2*x:], uint16(int16(v)))
		}
		return nil
	}
}

// BenchmarkWrite1024Int16 writes a 1,024×1,024 Int16 elevation-like grid
// (two overviews with the default 512-pixel tiles) to io.Discard, with the
// scratch files in a temporary directory. MB/s counts the raw samples.
//
//	go test -run '^$' -bench Write1024 -benchmem ./exporttask/internal/cog/
func BenchmarkWrite1024Int16(b *testing.B) {
	const side = 1024
	img := Image{Width: side, Height: side, BitsPerSample: 16, SampleFormat: 2, West: 34, North: 32, PixelWidth: 1.0 / 3600, PixelHeight: 1.0 / 3600, NoData: "-32768"}
	rows := smoothInt16(side)
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

// BenchmarkWriteTallInt16 writes 1,024×16,384 Int16 samples (32 MiB, six
// overviews) to io.Discard: 16 times the rows of BenchmarkWrite1024Int16
// for about the same memory (B/op), since only a row of tiles per level is
// held.
//
//	go test -run '^$' -bench WriteTall -benchmem ./exporttask/internal/cog/
func BenchmarkWriteTallInt16(b *testing.B) {
	const width, height = 1024, 16384
	img := Image{Width: width, Height: height, BitsPerSample: 16, SampleFormat: 2, West: 34, North: 32, PixelWidth: 1.0 / 3600, PixelHeight: 1.0 / 3600, NoData: "-32768"}
	dir := b.TempDir()
	b.SetBytes(width * height * 2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Write(context.Background(), io.Discard, img, smoothInt16(width), dir, nil); err != nil {
			b.Fatal(err)
		}
	}
}
