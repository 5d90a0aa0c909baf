package tiles3d

import (
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/glb"
)

// gridVertices is the number of vertices along each side of a tile's mesh.
const gridVertices = 33

// terrainColor is the meshes' material colour, a light earth tone.
var terrainColor = [4]float32{0.62, 0.56, 0.45, 1}

// terrainMesh samples height (meters, from lon and lat in degrees) on a
// gridVertices² grid over b and returns the mesh, placed at the ECEF
// position of b's centre, and the lowest and highest sample.
func terrainMesh(b geom.BBox, height func(lon, lat float64) float64) (*glb.Mesh, float64, float64) {
	const n = gridVertices
	lo, hi := math.Inf(1), math.Inf(-1)
	pts := make([][3]float64, n*n) // ECEF
	for j := range n {
		lat := b.South + b.Height()*float64(j)/(n-1)
		for i := range n {
			lon := b.West + b.Width()*float64(i)/(n-1)
			h := height(lon, lat)
			lo, hi = math.Min(lo, h), math.Max(hi, h)
			pts[j*n+i] = toECEF(lon, lat, h)
		}
	}
	centre := toECEF(b.West+b.Width()/2, b.South+b.Height()/2, 0)
	m := &glb.Mesh{
		Translation: toGLTF(centre),
		Positions:   make([]float32, 0, 3*n*n),
		Normals:     make([]float32, 0, 3*n*n),
		Indices:     make([]uint32, 0, 6*(n-1)*(n-1)),
		Color:       terrainColor,
	}
	at := func(i, j int) [3]float64 { return pts[min(max(j, 0), n-1)*n+min(max(i, 0), n-1)] }
	for j := range n {
		for i := range n {
			p := at(i, j)
			off := toGLTF([3]float64{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]})
			m.Positions = append(m.Positions, float32(off[0]), float32(off[1]), float32(off[2]))
			east, north := sub(at(i+1, j), at(i-1, j)), sub(at(i, j+1), at(i, j-1))
			nv := toGLTF(unit(cross(east, north)))
			m.Normals = append(m.Normals, float32(nv[0]), float32(nv[1]), float32(nv[2]))
		}
	}
	// Vertex i runs east, j north: SW, SE, NE and SW, NE, NW are
	// counter-clockwise seen from above.
	for j := range n - 1 {
		for i := range n - 1 {
			sw := uint32(j*n + i)
			se, nw := sw+1, sw+n
			ne := nw + 1
			m.Indices = append(m.Indices, sw, se, ne, sw, ne, nw)
		}
	}
	return m, lo, hi
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func unit(v [3]float64) [3]float64 {
	l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
	return [3]float64{v[0] / l, v[1] / l, v[2] / l}
}
