package tiles3d

import (
	"math"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// mat4 is a 4×4 affine transform, column-major as in 3D Tiles' transform.
type mat4 [16]float64

// identity returns the transform that leaves points where they are.
func identity() mat4 { return mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} }

// mul returns m·n: n applied first.
func (m mat4) mul(n mat4) mat4 {
	var out mat4
	for c := range 4 {
		for r := range 4 {
			var s float64
			for k := range 4 {
				s += m[k*4+r] * n[c*4+k]
			}
			out[c*4+r] = s
		}
	}
	return out
}

// point transforms a position.
func (m mat4) point(p [3]float64) [3]float64 {
	var out [3]float64
	for r := range 3 {
		out[r] = m[r]*p[0] + m[4+r]*p[1] + m[8+r]*p[2] + m[12+r]
	}
	return out
}

// vector transforms a direction (no translation).
func (m mat4) vector(v [3]float64) [3]float64 {
	var out [3]float64
	for r := range 3 {
		out[r] = m[r]*v[0] + m[4+r]*v[1] + m[8+r]*v[2]
	}
	return out
}

// maxScale is the longest a unit vector can become under m's linear part:
// the longest column when the columns are orthogonal (a rotation with
// scales, as 3D Tiles transforms are), else the Frobenius norm, which is
// at least that.
func (m mat4) maxScale() float64 {
	var cols [3][3]float64
	for c := range 3 {
		cols[c] = [3]float64{m[c*4], m[c*4+1], m[c*4+2]}
	}
	longest, frob := 0.0, 0.0
	for _, c := range cols {
		l := len3v(c)
		longest, frob = math.Max(longest, l), frob+l*l
	}
	for i := range 3 {
		a, b := cols[i], cols[(i+1)%3]
		if math.Abs(a[0]*b[0]+a[1]*b[1]+a[2]*b[2]) > 1e-9*len3v(a)*len3v(b) {
			return math.Sqrt(frob)
		}
	}
	return longest
}

// region is a lon/lat region: angles in radians, heights in meters above
// the WGS 84 ellipsoid, as 3D Tiles' boundingVolume.region. west ≤ east
// always: a region across the antimeridian is widened to all longitudes.
type region struct{ west, south, east, north, lo, hi float64 }

// box returns the region's extent in degrees.
func (r region) box() geom.BBox {
	d := 180 / math.Pi
	return geom.BBox{West: r.west * d, South: r.south * d, East: r.east * d, North: r.north * d}
}

// regionFromArray reads a 3D Tiles region array.
func regionFromArray(a []float64) region {
	return region{a[0], a[1], a[2], a[3], a[4], a[5]}
}

// Samples along each edge of a box face: from 2 (the corners) to
// maxFaceSamples, enough that the widening for what lies between samples
// is at most latTolerance radians of latitude and heightTolerance meters,
// and that samples are at most maxSampleSpacing meters apart.
const (
	maxFaceSamples   = 65
	maxSampleSpacing = 20e3
	latTolerance     = 1e-8 // about 6 cm
	heightTolerance  = 0.05
)

// boxRegion returns a lon/lat region that contains the parallelepiped of
// centre c and half-axes u, v, w, all in ECEF meters (WGS 84).
//
// Longitude on a plane face that does not meet the Earth's axis is
// monotonic along every line, so its extremes are at the corners; the
// extremes of latitude and height may lie inside a face, so every face is
// sampled on a grid and the extent is widened by a bound of how far the
// curved surfaces can bulge between samples (second order in the sample
// spacing, which is chosen to keep that under about 6 cm, with at most
// 65×65 samples a face: under a hundred metres for a thousand-kilometre
// box). A box that meets the Earth's axis spans every longitude and
// reaches the pole on its side, or becomes the whole globe when it reaches
// both sides of the equatorial plane; a box that straddles the
// antimeridian is widened to every longitude; a box reaching within
// 1,000 km of the Earth's centre becomes the whole globe.
func boxRegion(c, u, v, w [3]float64) region {
	whole := region{-math.Pi, -math.Pi / 2, math.Pi, math.Pi / 2, -wgs84A, wgs84A}
	axes := [3][3]float64{u, v, w}
	var corners [8][3]float64
	for i := range corners {
		p := c
		for k := range 3 {
			s := 1.0
			if i&(1<<k) != 0 {
				s = -1
			}
			for d := range 3 {
				p[d] += s * axes[k][d]
			}
		}
		corners[i] = p
	}
	// Samples on the six faces, and the largest cell diagonal.
	lu, lv, lw := len3v(u), len3v(v), len3v(w)
	faceDiag := 2 * max(math.Hypot(lu, lv), math.Hypot(lv, lw), math.Hypot(lu, lw))
	spacing := maxSampleSpacing
	if r, ρ := math.Hypot(c[0], c[1])-lu-lv-lw, len3v(c)-lu-lv-lw; r > 0 && ρ > 0 {
		spacing = min(spacing, math.Sqrt(latTolerance*r*ρ/2), math.Sqrt(heightTolerance*ρ))
	}
	n := int(min(max(math.Ceil(faceDiag/spacing)+1, 2), maxFaceSamples))
	var samples [][3]float64
	var cell float64
	for k := range 3 {
		a, b := axes[(k+1)%3], axes[(k+2)%3]
		d := 2 / float64(n-1) * math.Hypot(len3v(a), len3v(b))
		cell = math.Max(cell, d)
		for _, side := range []float64{-1, 1} {
			for i := range n {
				s := -1 + 2*float64(i)/float64(n-1)
				for j := range n {
					t := -1 + 2*float64(j)/float64(n-1)
					var p [3]float64
					for x := range 3 {
						p[x] = c[x] + side*axes[k][x] + s*a[x] + t*b[x]
					}
					samples = append(samples, p)
				}
			}
		}
	}
	rMin, ρMin := math.Inf(1), math.Inf(1)
	for _, p := range samples {
		rMin = math.Min(rMin, math.Hypot(p[0], p[1]))
		ρMin = math.Min(ρMin, len3v(p))
	}
	if ρMin-cell < 1e6 {
		return whole
	}
	out := region{south: math.Inf(1), north: math.Inf(-1), lo: math.Inf(1), hi: math.Inf(-1)}
	for _, p := range samples {
		_, lat, h := fromECEF(p)
		lat *= math.Pi / 180
		out.south, out.north = math.Min(out.south, lat), math.Max(out.north, lat)
		out.lo, out.hi = math.Min(out.lo, h), math.Max(out.hi, h)
	}
	// Between samples a face can reach past them by about cell²/(8·radius);
	// the bounds below take a generous multiple of that. Heights are
	// convex along a face (its highest points are samples), latitudes
	// quasi-concave in the north (the points at or above a latitude form a
	// cone of ellipsoid normals, which is convex) and quasi-convex in the
	// south, so only the bound away from the equator may lie between
	// samples.
	bulge := cell * cell / ρMin
	out.lo -= bulge + 1e-3
	out.hi += 1e-3
	// (1e-12 radians, 6 µm, absorbs rounding.)
	latPad := 2 * cell * cell / (math.Max(rMin-cell, 1) * ρMin)
	southPad, northPad := 1e-12, 1e-12
	if out.south < 0 {
		southPad += latPad
	}
	if out.north > 0 {
		northPad += latPad
	}
	out.south = math.Max(-math.Pi/2, out.south-southPad)
	out.north = math.Min(math.Pi/2, out.north+northPad)

	if crossesAxis(corners[:]) {
		north, south := false, false
		for _, p := range corners {
			north, south = north || p[2] > 0, south || p[2] < 0
		}
		if north && south {
			return whole
		}
		out.west, out.east = -math.Pi, math.Pi
		if north {
			out.north = math.Pi / 2
		} else {
			out.south = -math.Pi / 2
		}
		return out
	}
	lons := make([]float64, len(corners))
	for i, p := range corners {
		lons[i] = math.Atan2(p[1], p[0])
	}
	out.west, out.east = lonSpan(lons)
	const pad = 1e-12
	out.west, out.east = out.west-pad, out.east+pad
	if out.west < -math.Pi || out.east > math.Pi || out.west > out.east {
		out.west, out.east = -math.Pi, math.Pi
	}
	return out
}

// lonSpan returns the shortest arc holding every longitude (radians) as
// west, east; west > east when it crosses the antimeridian.
func lonSpan(lons []float64) (west, east float64) {
	s := slices.Clone(lons)
	slices.Sort(s)
	// The largest gap between neighbours (the wrap-around gap included)
	// is what the span leaves out.
	gap, at := s[0]+2*math.Pi-s[len(s)-1], 0
	for i := 1; i < len(s); i++ {
		if g := s[i] - s[i-1]; g > gap {
			gap, at = g, i
		}
	}
	if at == 0 {
		return s[0], s[len(s)-1]
	}
	return s[at], s[at-1]
}

// crossesAxis reports whether the convex hull of the points' projections
// on the equatorial plane holds the origin, or comes within a metre of it:
// then the box meets the Earth's axis.
func crossesAxis(pts [][3]float64) bool {
	// The origin is outside a convex hull exactly when some direction
	// separates it; the candidate directions are the normals of the
	// segments between pairs of points, and the directions of the points.
	outside := func(nx, ny float64) bool {
		l := math.Hypot(nx, ny)
		if l == 0 {
			return false
		}
		for _, p := range pts {
			if (p[0]*nx+p[1]*ny)/l < 1 {
				return false
			}
		}
		return true
	}
	for i, p := range pts {
		if outside(p[0], p[1]) {
			return false
		}
		for _, q := range pts[i+1:] {
			dx, dy := q[0]-p[0], q[1]-p[1]
			if outside(-dy, dx) || outside(dy, -dx) {
				return false
			}
		}
	}
	return true
}

// sphereRegion returns a lon/lat region containing the sphere of centre c
// (ECEF meters) and radius r: the region of the cube around it whose
// faces are aligned with east, north and up at c.
func sphereRegion(c [3]float64, r float64) region {
	if len3v(c) < 1 {
		return boxRegion(c, [3]float64{r, 0, 0}, [3]float64{0, r, 0}, [3]float64{0, 0, r})
	}
	lon, lat, _ := fromECEF(c)
	λ, φ := lon*math.Pi/180, lat*math.Pi/180
	sλ, cλ := math.Sincos(λ)
	sφ, cφ := math.Sincos(φ)
	east := [3]float64{-sλ * r, cλ * r, 0}
	north := [3]float64{-sφ * cλ * r, -sφ * sλ * r, cφ * r}
	up := [3]float64{cφ * cλ * r, cφ * sλ * r, sφ * r}
	return boxRegion(c, east, north, up)
}

func len3v(v [3]float64) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }
