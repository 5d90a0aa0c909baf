package transcode

import "strconv"

// UIVersion is a Swagger UI release number, major.minor.patch.
type UIVersion [3]int

// String returns the version as major.minor.patch.
func (v UIVersion) String() string {
	return strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + "." + strconv.Itoa(v[2])
}

// AtLeast reports whether v is major.minor.patch or newer.
func (v UIVersion) AtLeast(major, minor, patch int) bool {
	for i, w := range [3]int{major, minor, patch} {
		if v[i] != w {
			return v[i] > w
		}
	}
	return true
}

// RendersOAS32 reports whether Swagger UI of this version renders OpenAPI
// 3.2 documents: from 5.32.0.
func (v UIVersion) RendersOAS32() bool { return v.AtLeast(5, 32, 0) }
