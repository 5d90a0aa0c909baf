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

// The source DEM covers lon 10..11, lat 45..46 at size×size Int16
// pixels, upsampled by GDAL from a seedSize² grid of rolling hills.
const (
	srcWest, srcNorth = 10.0, 46.0
	srcExtent         = 1.0
	seedSize          = 1000
)

// buildSource writes the size×size COG to path unless it exists.
func buildSource(path string, size int) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	work, err := os.MkdirTemp("", "fairness-seed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := writeSeed(filepath.Join(work, "seed")); err != nil {
		return fmt.Errorf("writing the seed grid: %w", err)
	}
	tmp := path + ".partial"
	cmd := exec.Command("gdal_translate", "-q", "-outsize", fmt.Sprint(size), fmt.Sprint(size), "-r", "cubic",
		"-ot", "Int16", "-a_srs", "EPSG:4326", "-a_ullr", fmt.Sprint(srcWest), fmt.Sprint(srcNorth),
		fmt.Sprint(srcWest+srcExtent), fmt.Sprint(srcNorth-srcExtent), "-a_nodata", "-32768",
		"-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKSIZE=512", "-co", "NUM_THREADS=2",
		filepath.Join(work, "seed.img"), tmp)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("gdal_translate: %w", err)
	}
	return os.Rename(tmp, path)
}

// writeSeed writes base.img (raw little-endian Int16) and its ENVI
// header base.hdr.
func writeSeed(base string) error {
	f, err := os.Create(base + ".img")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	var b [2]byte
	for y := range seedSize {
		for x := range seedSize {
			u, v := float64(x)/seedSize, float64(y)/seedSize
			h := 900 + 500*math.Sin(u*11)*math.Sin(v*13) + 80*math.Cos(u*57+v*41) + float64((x*7919+y*104729)%11)
			binary.LittleEndian.PutUint16(b[:], uint16(int16(h)))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	hdr := fmt.Sprintf("ENVI\nsamples = %d\nlines = %d\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\n"+
		"data type = 2\ninterleave = bsq\nbyte order = 0\n", seedSize, seedSize)
	return os.WriteFile(base+".hdr", []byte(hdr), 0o644)
}
