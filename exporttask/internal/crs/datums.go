package crs

import "math"

// The datum shifts to WGS 84 that PROJ 9 (proj.db of EPSG 10.x) lists for
// NAD83 and NAD27 without grid files (`projinfo -s EPSG:4269|4267 -t
// EPSG:4326 --spatial-test intersects`, operations needing a grid left
// out), with their areas' bounding boxes and accuracies.

// nad83Shifts returns the shifts from NAD83.
func nad83Shifts() []areaShift {
	return []areaShift{
		{shift: nil, west: -172.54, south: 23.81, east: -47.74, north: 86.46, accuracy: 4, name: "NAD83 to WGS 84 (1) (EPSG:1188)"},
		{shift: newShift(grs80Ellipsoid, 1, 1, -1, 0, 0, 0, 0, false), west: -163.74, south: 15.56, east: -151.27, north: 25.58, accuracy: 4, name: "NAD83 to WGS 84 (3) (EPSG:1252)"},
		{shift: newShift(grs80Ellipsoid, -2, 0, 4, 0, 0, 0, 0, false), west: 172.42, south: 51.3, east: -164.84, north: 54.34, accuracy: 8, name: "NAD83 to WGS 84 (2) (EPSG:1251)"},
	}
}

// nad27Shifts returns the shifts from NAD27.
func nad27Shifts() []areaShift {
	return []areaShift{
		{shift: newShift(clarke1866, -10, 158, 187, 0, 0, 0, 0, false), west: -141.01, south: 40, east: -44, north: 83.17, accuracy: 20, offshore: false, name: "NAD27 to WGS 84 (3) (EPSG:1172)"},
		{shift: newShift(clarke1866, -8, 160, 176, 0, 0, 0, 0, false), west: -124.79, south: 24.41, east: -66.91, north: 49.38, accuracy: 10, offshore: false, name: "NAD27 to WGS 84 (4) (EPSG:1173)"},
		{shift: newShift(clarke1866, 4, 159, 188, 0, 0, 0, 0, false), west: -136.46, south: 49, east: -60.72, north: 83.17, accuracy: 8, offshore: false, name: "NAD27 to WGS 84 (13) (EPSG:1182)"},
		{shift: newShift(clarke1866, -8, 159, 175, 0, 0, 0, 0, false), west: -124.79, south: 25.83, east: -89.64, north: 49.05, accuracy: 7, offshore: false, name: "NAD27 to WGS 84 (6) (EPSG:1175)"},
		{shift: newShift(clarke1866, -9, 161, 179, 0, 0, 0, 0, false), west: -97.22, south: 24.41, east: -66.91, north: 49.38, accuracy: 11, offshore: false, name: "NAD27 to WGS 84 (5) (EPSG:1174)"},
		{shift: newShift(clarke1866, -12, 130, 190, 0, 0, 0, 0, false), west: -118.47, south: 14.51, east: -86.68, north: 32.72, accuracy: 12, offshore: false, name: "NAD27 to WGS 84 (18) (EPSG:1187)"},
		{shift: newShift(clarke1866, -9, 157, 184, 0, 0, 0, 0, false), west: -102, south: 41.67, east: -74.35, north: 60.01, accuracy: 12, offshore: false, name: "NAD27 to WGS 84 (11) (EPSG:1180)"},
		{shift: newShift(clarke1866, -22, 160, 190, 0, 0, 0, 0, false), west: -79.85, south: 43.41, east: -52.54, north: 62.62, accuracy: 9, offshore: false, name: "NAD27 to WGS 84 (12) (EPSG:1181)"},
		{shift: newShift(clarke1866, -5, 135, 172, 0, 0, 0, 0, false), west: -168.26, south: 54.34, east: -129.99, north: 71.4, accuracy: 12, offshore: false, name: "NAD27 to WGS 84 (7) (EPSG:1176)"},
		{shift: newShift(clarke1866, -3, 142, 183, 0, 0, 0, 0, false), west: -85.01, south: 13, east: -59.37, north: 23.25, accuracy: 16, offshore: false, name: "NAD27 to WGS 84 (1) (EPSG:1170)"},
		{shift: newShift(clarke1866, -7, 162, 188, 0, 0, 0, 0, false), west: -139.04, south: 48.25, east: -109.98, north: 60.01, accuracy: 13, offshore: false, name: "NAD27 to WGS 84 (10) (EPSG:1179)"},
		{shift: newShift(clarke1866, 0, 125, 194, 0, 0, 0, 0, false), west: -92.29, south: 7.98, east: -82.53, north: 18.49, accuracy: 10, offshore: false, name: "NAD27 to WGS 84 (2) (EPSG:1171)"},
		{shift: newShift(clarke1866, -7, 158, 172, 0, 0, 0, 0, false), west: -97.22, south: 23.82, east: -81.17, north: 30.25, accuracy: 8, offshore: true, name: "NAD27 to WGS 84 (84) (EPSG:15856)"},
		{shift: newShift(clarke1866, 2.478, 149.752, 197.726, -0.526, -0.498, 0.501, 0.685, true), west: -87.01, south: 18.83, east: -73.57, north: 25.51, accuracy: 1, offshore: false, name: "NAD27 to WGS 84 (88) (EPSG:15978)"},
		{shift: newShift(clarke1866, -4.2, 135.4, 181.9, 0, 0, 0, 0, false), west: -87.01, south: 18.83, east: -73.57, north: 25.51, accuracy: 3, offshore: false, name: "NAD27 to WGS 84 (30) (EPSG:1530)"},
		{shift: newShift(clarke1866, -7, 139, 181, 0, 0, 0, 0, false), west: -141.01, south: 59.99, east: -123.91, north: 69.7, accuracy: 10, offshore: false, name: "NAD27 to WGS 84 (14) (EPSG:1183)"},
		{shift: newShift(clarke1866, -4, 154, 178, 0, 0, 0, 0, false), west: -79.04, south: 20.86, east: -72.68, north: 27.29, accuracy: 8, offshore: false, name: "NAD27 to WGS 84 (8) (EPSG:1177)"},
		{shift: newShift(clarke1866, -9, 152, 178, 0, 0, 0, 0, false), west: -85.01, south: 19.77, east: -74.07, north: 23.25, accuracy: 44, offshore: false, name: "NAD27 to WGS 84 (16) (EPSG:1185)"},
		{shift: newShift(clarke1866, -3, 154, 177, 0, 0, 0, 0, false), west: -87.25, south: 23.82, east: -81.17, north: 30.25, accuracy: 5, offshore: true, name: "NAD27 to WGS 84 (80) (EPSG:15852)"},
		{shift: newShift(clarke1866, -7, 151, 175, 0, 0, 0, 0, false), west: -95, south: 25.61, east: -87.25, north: 30.23, accuracy: 5, offshore: true, name: "NAD27 to WGS 84 (81) (EPSG:15853)"},
		{shift: newShift(clarke1866, -2, 152, 149, 0, 0, 0, 0, false), west: -178.3, south: 51.54, east: -164.84, north: 54.34, accuracy: 15, offshore: false, name: "NAD27 to WGS 84 (21) (EPSG:1249)"},
		{shift: newShift(clarke1866, -32.3841359, 180.4090461, 120.8442577, 2.1545854, 0.1498782, -0.5742915, 8.1049164, true), west: -83.04, south: 7.15, east: -77.19, north: 9.68, accuracy: 1, offshore: false, name: "NAD27 to WGS 84 (89) (EPSG:7698)"},
		{shift: newShift(clarke1866, -2, 124.7, 196, 0, 0, 0, 0, false), west: -94.79, south: 17.85, east: -89.75, north: 20.89, accuracy: 5, offshore: true, name: "NAD27 to WGS 84 (87) (EPSG:15699)"},
		{shift: newShift(clarke1866, 0, 125, 196, 0, 0, 0, 0, false), west: -94.33, south: 20.87, east: -88.67, north: 23.01, accuracy: 5, offshore: true, name: "NAD27 to WGS 84 (86) (EPSG:15913)"},
		{shift: newShift(clarke1866, 11, 114, 195, 0, 0, 0, 0, false), west: -73.29, south: 75.86, east: -60.98, north: 79.2, accuracy: 44, offshore: false, name: "NAD27 to WGS 84 (17) (EPSG:1186)"},
		{shift: newShift(clarke1866, 2, 204, 105, 0, 0, 0, 0, false), west: 172.42, south: 51.3, east: 179.86, north: 53.07, accuracy: 18, offshore: false, name: "NAD27 to WGS 84 (22) (EPSG:1250)"},
		{shift: newShift(clarke1866, -7, 151, 178, 0, 0, 0, 0, false), west: -97.22, south: 25.97, east: -95, north: 28.97, accuracy: 5, offshore: true, name: "NAD27 to WGS 84 (82) (EPSG:15854)"},
		{shift: newShift(clarke1866, -8, 125, 190, 0, 0, 0, 0, false), west: -98.1, south: 21.51, east: -96.89, north: 22.75, accuracy: 5, offshore: true, name: "NAD27 to WGS 84 (83) (EPSG:15855)"},
		{shift: newShift(clarke1866, 0, 125, 201, 0, 0, 0, 0, false), west: -80.07, south: 8.82, east: -79.46, north: 9.45, accuracy: 35, offshore: false, name: "NAD27 to WGS 84 (15) (EPSG:1184)"},
		{shift: newShift(clarke1866, 1, 140, 165, 0, 0, 0, 0, false), west: -74.6, south: 23.9, east: -74.37, north: 24.19, accuracy: 44, offshore: false, name: "NAD27 to WGS 84 (9) (EPSG:1178)"},
	}
}

// withShifts sets the CRS's shifts and the description of its datum
// shift.
func (c *CRS) withShifts(shifts []areaShift, desc string) *CRS {
	c.shifts = shifts
	c.toWGS84 = desc
	if c.method != methodGeographic {
		for i := range shifts {
			c.projectArea(&shifts[i])
		}
	}
	return c
}

// areaEdgePoints is the number of points per edge PROJ densifies an
// area's box with when it transforms it to a projected source CRS.
const areaEdgePoints = 21

// projectArea sets the projected box of a's area: its lon/lat box's edges
// densified, projected (points outside the projection skipped) and
// bounded.
func (c *CRS) projectArea(a *areaShift) {
	east := a.east
	if east < a.west {
		east += 360
	}
	a.minX, a.minY, a.maxX, a.maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	corners := [5][2]float64{{a.west, a.south}, {east, a.south}, {east, a.north}, {a.west, a.north}, {a.west, a.south}}
	for e := range 4 {
		p, q := corners[e], corners[e+1]
		for i := range areaEdgePoints + 1 {
			t := float64(i) / areaEdgePoints
			x, y, ok := c.project((p[0]+(q[0]-p[0])*t)*deg, (p[1]+(q[1]-p[1])*t)*deg)
			if !ok {
				continue
			}
			a.minX, a.maxX = math.Min(a.minX, x), math.Max(a.maxX, x)
			a.minY, a.maxY = math.Min(a.minY, y), math.Max(a.maxY, y)
		}
	}
}

// Descriptions of the NAD83 and NAD27 shifts.
const (
	nad83Desc = "NAD83 to WGS 84 (1), a null transformation (EPSG:1188); in Hawaii NAD83 to WGS 84 (3), in the Aleutians (2): geocentric translations; elsewhere PROJ's ballpark (null) transformation"
	nad27Desc = "by area, as PROJ picks per point: the most accurate of the 30 NAD27 to WGS 84 geocentric translation or coordinate frame Helmert operations (EPSG:1170–1187, 1249, 1250, 1530, 7698, 15699, 15852–15856, 15913, 15978) whose area's bounding box holds the point; elsewhere PROJ's ballpark (null) transformation"
)
