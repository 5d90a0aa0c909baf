package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
)

// The source: 20,000×20,000 pixels of 0.0001° over lon 34..36, lat 31..33.
const (
	srcSize              = 20000
	srcWest, srcNorth    = 34.0, 33.0
	srcRes               = 2.0 / srcSize
	seedSize             = 2000 // the grid GDAL upsamples ten times
	windowSize           = 1024
	windowCol, windowRow = 5100, 7300 // not on tile boundaries: 3×3 tiles met
)

// buildSource makes the source COG at path unless it exists: a smooth
// seed grid of heights written as raw Int16 (ENVI), upsampled by GDAL with
// bilinear resampling to 20,000² and written as a COG.
func buildSource(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	work, err := os.MkdirTemp("", "demwindow-seed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	seed := filepath.Join(work, "seed.img")
	f, err := os.Create(seed)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	var b [2]byte
	for y := range seedSize {
		for x := range seedSize {
			binary.LittleEndian.PutUint16(b[:], uint16(int16(height(x, y))))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	hdr := fmt.Sprintf("ENVI\nsamples = %d\nlines = %d\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 2\ninterleave = bsq\nbyte order = 0\n", seedSize, seedSize)
	if err := os.WriteFile(filepath.Join(work, "seed.hdr"), []byte(hdr), 0o644); err != nil {
		return err
	}
	tmp := path + ".partial"
	cmd := exec.Command("gdal_translate", "-q", "-outsize", fmt.Sprint(srcSize), fmt.Sprint(srcSize), "-r", "bilinear",
		"-ot", "Int16", "-a_srs", "EPSG:4326", "-a_ullr", fmt.Sprint(srcWest), fmt.Sprint(srcNorth),
		fmt.Sprint(srcWest+srcSize*srcRes), fmt.Sprint(srcNorth-srcSize*srcRes), "-a_nodata", "-32768",
		"-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKSIZE=512", "-co", "NUM_THREADS=2", seed, tmp)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("gdal_translate: %w", err)
	}
	return os.Rename(tmp, path)
}

// height is a smooth landscape with some roughness: hills of a few
// kilometres and a hash-based texture of a few metres.
func height(x, y int) float64 {
	fx, fy := float64(x)/seedSize, float64(y)/seedSize
	h := 600 + 400*math.Sin(fx*9.1)*math.Cos(fy*7.3) + 150*math.Sin(fx*31+fy*17) + 60*math.Cos(fx*71-fy*53)
	n := uint32(x)*2654435761 ^ uint32(y)*2246822519
	n ^= n >> 15
	return h + float64(n%9) - 4
}
