package tiles3d

import "math"

// WGS 84 ellipsoid.
const (
	wgs84A  = 6378137.0
	wgs84F  = 1 / 298.257223563
	wgs84E2 = wgs84F * (2 - wgs84F)
)

// toECEF returns the Earth-centred, Earth-fixed position of a point given
// in degrees and meters above the ellipsoid.
func toECEF(lon, lat, h float64) [3]float64 {
	φ, λ := lat*math.Pi/180, lon*math.Pi/180
	sφ, cφ := math.Sincos(φ)
	n := wgs84A / math.Sqrt(1-wgs84E2*sφ*sφ)
	return [3]float64{(n + h) * cφ * math.Cos(λ), (n + h) * cφ * math.Sin(λ), (n*(1-wgs84E2) + h) * sφ}
}

// fromECEF is the inverse of toECEF (a few fixed-point iterations, well
// below a millimetre near the surface).
func fromECEF(p [3]float64) (lon, lat, h float64) {
	lon = math.Atan2(p[1], p[0])
	r := math.Hypot(p[0], p[1])
	φ := math.Atan2(p[2], r*(1-wgs84E2))
	// height is the distance along the normal at latitude φ; this form
	// holds at the poles too, where cos φ is 0.
	height := func(φ float64) (h, n float64) {
		s, c := math.Sincos(φ)
		w := math.Sqrt(1 - wgs84E2*s*s)
		return r*c + p[2]*s - wgs84A*w, wgs84A / w
	}
	for range 5 {
		h, n := height(φ)
		φ = math.Atan2(p[2], r*(1-wgs84E2*n/(n+h)))
	}
	h, _ = height(φ)
	return lon * 180 / math.Pi, φ * 180 / math.Pi, h
}

// 3D Tiles turns glTF's +Y up into its +Z up: glTF (x, y, z) is tile
// (x, -z, y). These convert an ECEF vector to glTF axes and back.
func toGLTF(v [3]float64) [3]float64   { return [3]float64{v[0], v[2], -v[1]} }
func fromGLTF(v [3]float64) [3]float64 { return [3]float64{v[0], -v[2], v[1]} }
