package tiles3d

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// This file's geodesy is written for the tests, apart from ecef.go: the
// forward formula from the semi-axes, and Bowring's closed-form inverse
// (ecef.go iterates).
const (
	testA = 6378137.0
	testB = testA * (1 - 1/298.257223563)
)

// geodetic returns the ECEF position of (lon, lat) degrees at height h.
func geodetic(lon, lat, h float64) [3]float64 {
	e2 := (testA*testA - testB*testB) / (testA * testA)
	φ, λ := lat*math.Pi/180, lon*math.Pi/180
	n := testA / math.Sqrt(1-e2*math.Sin(φ)*math.Sin(φ))
	return [3]float64{(n + h) * math.Cos(φ) * math.Cos(λ), (n + h) * math.Cos(φ) * math.Sin(λ), (n*testB*testB/(testA*testA) + h) * math.Sin(φ)}
}

// bowring returns the longitude and latitude (degrees) and height of an
// ECEF position.
func bowring(p [3]float64) (lon, lat, h float64) {
	e2 := (testA*testA - testB*testB) / (testA * testA)
	ep2 := (testA*testA - testB*testB) / (testB * testB)
	r := math.Hypot(p[0], p[1])
	θ := math.Atan2(p[2]*testA, r*testB)
	φ := math.Atan2(p[2]+ep2*testB*math.Pow(math.Sin(θ), 3), r-e2*testA*math.Pow(math.Cos(θ), 3))
	n := testA / math.Sqrt(1-e2*math.Sin(φ)*math.Sin(φ))
	return math.Atan2(p[1], p[0]) * 180 / math.Pi, φ * 180 / math.Pi, r/math.Cos(φ) - n
}

// enuAxes returns the east, north and up unit vectors at (lon, lat).
func enuAxes(lon, lat float64) (e, n, u [3]float64) {
	φ, λ := lat*math.Pi/180, lon*math.Pi/180
	e = [3]float64{-math.Sin(λ), math.Cos(λ), 0}
	n = [3]float64{-math.Sin(φ) * math.Cos(λ), -math.Sin(φ) * math.Sin(λ), math.Cos(φ)}
	u = [3]float64{math.Cos(φ) * math.Cos(λ), math.Cos(φ) * math.Sin(λ), math.Sin(φ)}
	return e, n, u
}

// enuPoint returns the ECEF position east, north and up meters from the
// point (lon, lat, h) along its east-north-up axes.
func enuPoint(lon, lat, h, east, north, up float64) [3]float64 {
	o := geodetic(lon, lat, h)
	e, n, u := enuAxes(lon, lat)
	for i := range 3 {
		o[i] += east*e[i] + north*n[i] + up*u[i]
	}
	return o
}

func scale(v [3]float64, s float64) [3]float64 { return [3]float64{v[0] * s, v[1] * s, v[2] * s} }

// checkHolds checks that r holds a dense sample of the box (inside and
// on its faces), converted with Bowring's formula, and exceeds it by at
// most slack radians and hSlack meters.
func checkHolds(t *testing.T, r region, c, u, v, w [3]float64, slack, hSlack float64) {
	t.Helper()
	const n = 24
	minLon, maxLon, minLat, maxLat := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	minH, maxH := math.Inf(1), math.Inf(-1)
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			for k := 0; k <= n; k++ {
				a, b, d := -1+2*float64(i)/n, -1+2*float64(j)/n, -1+2*float64(k)/n
				var p [3]float64
				for x := range 3 {
					p[x] = c[x] + a*u[x] + b*v[x] + d*w[x]
				}
				lon, lat, h := bowring(p)
				lon, lat = lon*math.Pi/180, lat*math.Pi/180
				minLon, maxLon = math.Min(minLon, lon), math.Max(maxLon, lon)
				minLat, maxLat = math.Min(minLat, lat), math.Max(maxLat, lat)
				minH, maxH = math.Min(minH, h), math.Max(maxH, h)
			}
		}
	}
	assert.LessOrEqual(t, r.west, minLon)
	assert.GreaterOrEqual(t, r.east, maxLon)
	assert.LessOrEqual(t, r.south, minLat)
	assert.GreaterOrEqual(t, r.north, maxLat)
	assert.LessOrEqual(t, r.lo, minH)
	assert.GreaterOrEqual(t, r.hi, maxH)
	assert.InDelta(t, minLon, r.west, slack)
	assert.InDelta(t, maxLon, r.east, slack)
	assert.InDelta(t, minLat, r.south, slack)
	assert.InDelta(t, maxLat, r.north, slack)
	assert.InDelta(t, minH, r.lo, hSlack)
	assert.InDelta(t, maxH, r.hi, hSlack)
}

func TestBoxRegionOfAKnownBox(t *testing.T) {
	// A box 1,000 m east-west, 600 m north-south and 200 m high, centred
	// 100 m above (34.5°E, 31.5°N).
	lon, lat := 34.5, 31.5
	c := geodetic(lon, lat, 100)
	e, n, u := enuAxes(lon, lat)
	hx, hy, hz := scale(e, 500), scale(n, 300), scale(u, 100)
	r := boxRegion(c, hx, hy, hz)
	checkHolds(t, r, c, hx, hy, hz, 1e-8, 0.05)
	// The half-widths in angle, from the radii of curvature.
	e2 := (testA*testA - testB*testB) / (testA * testA)
	s := math.Sin(lat * math.Pi / 180)
	nRad := testA / math.Sqrt(1-e2*s*s)
	mRad := testA * (1 - e2) / math.Pow(1-e2*s*s, 1.5)
	assert.InDelta(t, 2*500/((nRad+100)*math.Cos(lat*math.Pi/180)), r.east-r.west, 2e-7)
	assert.InDelta(t, 2*300/(mRad+100), r.north-r.south, 2e-7)

	// A rotated, thousand-kilometre box: still held, a little wider.
	c = geodetic(10, 50, 0)
	e, n, u = enuAxes(10, 50)
	hx = [3]float64{}
	for i := range 3 {
		hx[i] = 400e3*e[i] + 300e3*n[i]
	}
	hy, hz = scale([3]float64{-n[0]*0.8 + e[0]*0.6, -n[1]*0.8 + e[1]*0.6, -n[2]*0.8 + e[2]*0.6}, 300e3), scale(u, 20e3)
	r = boxRegion(c, hx, hy, hz)
	checkHolds(t, r, c, hx, hy, hz, 5e-5, 100)
}

func TestBoxRegionFlatBox(t *testing.T) {
	// 3d-tiles-tools writes boxes with a zero half-axis.
	c := geodetic(-70, -20, 5)
	e, n, _ := enuAxes(-70, -20)
	r := boxRegion(c, scale(e, 50), scale(n, 50), [3]float64{})
	checkHolds(t, r, c, scale(e, 50), scale(n, 50), [3]float64{}, 1e-8, 0.06)
}

func TestBoxRegionAntimeridianAndPole(t *testing.T) {
	// Across the antimeridian: every longitude, the latitudes kept.
	c := geodetic(180, 10, 0)
	e, n, u := enuAxes(180, 10)
	r := boxRegion(c, scale(e, 1000), scale(n, 1000), scale(u, 10))
	assert.Equal(t, -math.Pi, r.west)
	assert.Equal(t, math.Pi, r.east)
	assert.InDelta(t, 10*math.Pi/180, (r.south+r.north)/2, 1e-6)
	assert.Less(t, r.north-r.south, 1e-3)

	// Just east of it: the box keeps its own longitudes.
	c = geodetic(179.9, 10, 0)
	e, n, u = enuAxes(179.9, 10)
	r = boxRegion(c, scale(e, 1000), scale(n, 1000), scale(u, 10))
	checkHolds(t, r, c, scale(e, 1000), scale(n, 1000), scale(u, 10), 5e-8, 0.1)

	// Over the north pole: every longitude, up to the pole.
	c = geodetic(0, 90, 0)
	r = boxRegion(c, [3]float64{2000, 0, 0}, [3]float64{0, 2000, 0}, [3]float64{0, 0, 100})
	assert.Equal(t, -math.Pi, r.west)
	assert.Equal(t, math.Pi, r.east)
	assert.Equal(t, math.Pi/2, r.north)
	assert.InDelta(t, math.Pi/2-2000*math.Sqrt2/testB, r.south, 1e-4)
	assert.Less(t, r.south, math.Pi/2-2000*math.Sqrt2/6.4e6)

	// Around the Earth's centre: the whole globe.
	r = boxRegion([3]float64{}, [3]float64{7e6, 0, 0}, [3]float64{0, 7e6, 0}, [3]float64{0, 0, 7e6})
	assert.Equal(t, region{-math.Pi, -math.Pi / 2, math.Pi, math.Pi / 2, -testA, testA}, r)
}

func TestSphereRegion(t *testing.T) {
	c := geodetic(34.5, 31.5, 100)
	r := sphereRegion(c, 250)
	// The sphere's extremes east, west, north and south lie in the region.
	e, n, u := enuAxes(34.5, 31.5)
	for _, d := range [][3]float64{e, n, u, scale(e, -1), scale(n, -1), scale(u, -1)} {
		p := [3]float64{c[0] + 250*d[0], c[1] + 250*d[1], c[2] + 250*d[2]}
		lon, lat, h := bowring(p)
		lon, lat = lon*math.Pi/180, lat*math.Pi/180
		assert.True(t, lon >= r.west && lon <= r.east && lat >= r.south && lat <= r.north && h >= r.lo && h <= r.hi,
			"%v outside %+v", []float64{lon, lat, h}, r)
	}
	// The region is the cube around it, not much more.
	assert.Less(t, r.north-r.south, 2*260/6.35e6)
}

func TestTransformsCompose(t *testing.T) {
	// A translation then a scale, column-major: the child's transform is
	// applied first.
	tr := identity()
	tr[12], tr[13], tr[14] = 10, 20, 30
	sc := identity()
	sc[0], sc[5], sc[10] = 2, 2, 2
	m := tr.mul(sc)
	assert.Equal(t, [3]float64{12, 22, 32}, m.point([3]float64{1, 1, 1}))
	assert.Equal(t, [3]float64{2, 2, 2}, m.vector([3]float64{1, 1, 1}))
	require.InDelta(t, 2, m.maxScale(), 1e-12)
	// A rotation keeps lengths; a shear stretches some vectors past its
	// longest column, and the bound covers them.
	e, n, u := enuAxes(34.5, 31.5)
	rot := mat4{e[0], e[1], e[2], 0, n[0], n[1], n[2], 0, u[0], u[1], u[2], 0, 0, 0, 0, 1}
	assert.InDelta(t, 1, rot.maxScale(), 1e-12)
	shear := identity()
	shear[4] = 1 // x += y
	d := shear.vector([3]float64{1 / math.Sqrt2, 1 / math.Sqrt2, 0})
	assert.GreaterOrEqual(t, shear.maxScale(), len3v(d))
}
