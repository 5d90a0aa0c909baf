package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/openapi-viewer/viewer/bench/internal/procstat"
)

// runSampled runs cmd and returns the peak of its RssAnon, read every
// 10 ms until it exits (see procstat).
func runSampled(cmd *exec.Cmd) (int64, error) {
	r, err := procstat.Run(context.Background(), cmd, 10*time.Millisecond)
	return r.PeakRssAnon, err
}

// sameFiles compares two files a megabyte at a time and returns their
// length, or an error naming the first difference.
func sameFiles(a, b string) (int64, error) {
	fa, err := os.Open(a)
	if err != nil {
		return 0, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return 0, err
	}
	defer fb.Close()
	ra, rb := bufio.NewReaderSize(fa, 1<<20), bufio.NewReaderSize(fb, 1<<20)
	x, y := make([]byte, 1<<20), make([]byte, 1<<20)
	var off int64
	for {
		n, errA := io.ReadFull(ra, x)
		m, errB := io.ReadFull(rb, y)
		if n != m || !bytes.Equal(x[:n], y[:m]) {
			return off, fmt.Errorf("the export differs from GDAL's cut in the megabyte at byte %d (%d and %d bytes read)", off, n, m)
		}
		off += int64(n)
		endA := errors.Is(errA, io.EOF) || errors.Is(errA, io.ErrUnexpectedEOF)
		endB := errors.Is(errB, io.EOF) || errors.Is(errB, io.ErrUnexpectedEOF)
		switch {
		case endA && endB:
			return off, nil
		case errA != nil && !endA:
			return off, errA
		case errB != nil && !endB:
			return off, errB
		}
	}
}
