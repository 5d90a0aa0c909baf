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

// Every source has pixels of 0.0001° from lon 34, lat 33 (its north-west
// corner): 20,000×20,000 covers lon 34..36, lat 31..33.
const (
	srcWest, srcNorth = 34.0, 33.0
	srcRes            = 0.0001
	seedScale         = 2000 // seed pixels over which the hills repeat
	upsample          = 10   // GDAL upsamples the seed grid ten times
)

// The warp case's source is in UTM zone 36N (EPSG:32636) with pixels of
// 10 m from easting 400,000, northing 3,500,000 (its north-west corner,
// about lon 31.95, lat 31.63): 20,000×20,000 covers 200 km each way.
const (
	utmEPSG           = 32636
	utmWest, utmNorth = 400000.0, 3500000.0
	utmRes            = 10.0
	geographicEPSG    = 4326
)

// buildSource makes the source COG of width×height in CRS epsg (4326 or
// utmEPSG) at path unless it exists: a smooth seed grid of heights a tenth
// of the size written as raw Int16 (ENVI), upsampled by GDAL with bilinear
// resampling and written as a COG with 512×512 tiles.
func buildSource(path string, width, height, epsg int) error {
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
	seedW, seedH := width/upsample, height/upsample
	for y := range seedH {
		for x := range seedW {
			binary.LittleEndian.PutUint16(b[:], uint16(int16(elevation(x, y))))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	hdr := fmt.Sprintf("ENVI\nsamples = %d\nlines = %d\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 2\ninterleave = bsq\nbyte order = 0\n", seedW, seedH)
	if err := os.WriteFile(filepath.Join(work, "seed.hdr"), []byte(hdr), 0o644); err != nil {
		return err
	}
	tmp := path + ".partial"
	west, north, res := srcWest, srcNorth, srcRes
	if epsg == utmEPSG {
		west, north, res = utmWest, utmNorth, utmRes
	}
	cmd := exec.Command("gdal_translate", "-q", "-outsize", fmt.Sprint(width), fmt.Sprint(height), "-r", "bilinear",
		"-ot", "Int16", "-a_srs", fmt.Sprintf("EPSG:%d", epsg), "-a_ullr", fmt.Sprint(west), fmt.Sprint(north),
		fmt.Sprint(west+float64(width)*res), fmt.Sprint(north-float64(height)*res), "-a_nodata", "-32768",
		"-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKSIZE=512", "-co", "NUM_THREADS=2", seed, tmp)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("gdal_translate: %w", err)
	}
	return os.Rename(tmp, path)
}

// elevation is a smooth landscape with some roughness: hills of a few
// kilometres and a hash-based texture of a few metres.
func elevation(x, y int) float64 {
	fx, fy := float64(x)/seedScale, float64(y)/seedScale
	h := 600 + 400*math.Sin(fx*9.1)*math.Cos(fy*7.3) + 150*math.Sin(fx*31+fy*17) + 60*math.Cos(fx*71-fy*53)
	n := uint32(x)*2654435761 ^ uint32(y)*2246822519
	n ^= n >> 15
	return h + float64(n%9) - 4
}
