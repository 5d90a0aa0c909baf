package geom

// AppendRings appends to pts the points of rings, each a list of GeoJSON
// positions ([x, y] or [x, y, z]; the third is dropped), and returns the
// points and the polygon whose rings are slices of them. It is the one
// conversion from the API's GeoJSON to this package's geometry; a caller
// that converts many polygons passes the same pts back to reuse its room.
// Every position must have at least 2 numbers.
func AppendRings[P ~[]float64](pts []Point, poly Polygon, rings [][]P) ([]Point, Polygon) {
	for _, ring := range rings {
		start := len(pts)
		for _, q := range ring {
			pts = append(pts, Point{X: q[0], Y: q[1]})
		}
		poly = append(poly, Ring(pts[start:len(pts):len(pts)]))
	}
	return pts, poly
}
