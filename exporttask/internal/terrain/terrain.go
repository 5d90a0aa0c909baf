// Package terrain is the synthetic landscape of the demo catalog: one
// deterministic elevation function that the demo DEM samples, the demo
// raster shades and the demo 3D tiles model, so the three records show the
// same hills.
package terrain

import "math"

// hill is one bump of the landscape: a Gaussian at (lon, lat) in degrees.
type hill struct {
	lon, lat, height, radius float64
}

// hills returns the landscape's bumps; a function, so the package holds no
// mutable state.
func hills() [5]hill {
	return [5]hill{
		{34.25, 31.30, 820, 0.16},
		{34.70, 31.75, 640, 0.22},
		{34.55, 31.20, 410, 0.10},
		{34.10, 31.85, 300, 0.18},
		{34.85, 31.35, 520, 0.12},
	}
}

// Elevation returns the height in meters at (lon, lat) in degrees: a few
// hills over gentle ridges, between roughly 50 and 1,000 meters around the
// demo area (lon 34–35, lat 31–32), never negative.
func Elevation(lon, lat float64) float64 {
	h := 120 + 40*math.Sin(lon*9)*math.Cos(lat*7)
	for _, b := range hills() {
		dx, dy := (lon-b.lon)/b.radius, (lat-b.lat)/b.radius
		h += b.height * math.Exp(-(dx*dx+dy*dy)/2)
	}
	return math.Max(h, 0)
}
