package export_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// randomArea draws polygons with holes on a grid of quarter units around
// (cx, cy), so that pixel centres and tile corners fall on vertices and
// edges; rings may cross, and some are unclosed or degenerate.
func randomArea(rng *rand.Rand, cx, cy float64) *exporttask.Geometry {
	ring := func(x, y, r float64) []exporttask.Position {
		if rng.IntN(10) == 0 { // anywhere, possibly crossing itself, maybe unclosed
			out := make([]exporttask.Position, 3+rng.IntN(5))
			for i := range out {
				out[i] = exporttask.Position{cx + float64(rng.IntN(17)-8)/4, cy + float64(rng.IntN(17)-8)/4}
			}
			return out
		}
		n := 3 + rng.IntN(8)
		out := make([]exporttask.Position, 0, n+1)
		for i := range n {
			a := 2 * math.Pi * (float64(i) + 0.8*rng.Float64()) / float64(n)
			d := r * (0.3 + 0.7*rng.Float64())
			out = append(out, exporttask.Position{math.Round((x+d*math.Cos(a))*4) / 4, math.Round((y+d*math.Sin(a))*4) / 4})
		}
		return append(out, out[0])
	}
	var polys [][][]exporttask.Position
	for range 1 + rng.IntN(3) {
		x, y, r := cx+2*(rng.Float64()-0.5), cy+2*(rng.Float64()-0.5), 0.5+2*rng.Float64()
		p := [][]exporttask.Position{ring(x, y, r)}
		for range rng.IntN(8) {
			p = append(p, ring(x+r*(rng.Float64()-0.5), y+r*(rng.Float64()-0.5), r/3))
		}
		polys = append(polys, p)
	}
	return exporttask.NewMultiPolygon(polys...)
}

// TestJobIndexMatchesPlainTests compares what a Job made by NewJob answers
// (from its index) with the plain tests over every edge, on random
// footprints and regions with holes: InsideRow pixel by pixel, Contains,
// and IntersectsBox on tiles of several sizes.
func TestJobIndexMatchesPlainTests(t *testing.T) {
	jobs := 0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		rec := catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Footprint: randomArea(rng, 10, 20), Resolution: 0.125}
		if seed%5 == 0 {
			rec.Footprint = square(7, 17, 13, 23)
		}
		var area *exporttask.FeatureCollection
		if seed%7 != 0 {
			area = roi(randomArea(rng, 10, 20))
		}
		j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: area})
		if err != nil {
			continue // the ROI misses the footprint
		}
		jobs++
		nv := naiveOf(t, j)
		in := make([]bool, 90)
		for range 30 {
			lat := 16 + float64(rng.IntN(65))/8
			lon0 := 6 + float64(rng.IntN(17))/8
			step := []float64{0.125, 0.0625, 0.1, -0.125, 0}[rng.IntN(5)]
			if step < 0 {
				lon0 += 8
			}
			j.InsideRow(lat, lon0, step, in)
			for x, got := range in {
				lon := lon0 + float64(float64(x)*step)
				require.Equal(t, nv.contains(lon, lat), got, "seed %d: InsideRow at (%g, %g)", seed, lon, lat)
				require.Equal(t, nv.contains(lon, lat), j.Contains(lon, lat), "seed %d: Contains at (%g, %g)", seed, lon, lat)
			}
		}
		for range 200 {
			size := []float64{0.125, 0.25, 1, 4}[rng.IntN(4)]
			w, s := 6+float64(rng.IntN(8*8))/8, 16+float64(rng.IntN(8*8))/8
			b := geom.BBox{West: w, South: s, East: w + size, North: s + size}
			require.Equal(t, nv.intersectsBox(b), j.IntersectsBox(b), "seed %d: box %+v", seed, b)
		}
	}
	assert.Greater(t, jobs, 150, "most random regions meet the footprint")
}

// TestJobAreaIsFixed checks that a Job answers for the area NewJob
// converted, whatever the request it was made from says later, and that
// the zero Job contains nothing.
func TestJobAreaIsFixed(t *testing.T) {
	rec := catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Footprint: square(0, 0, 10, 10), Resolution: 1}
	j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi(square(0, 0, 5, 5))})
	require.NoError(t, err)
	require.True(t, j.Contains(4, 4))
	require.False(t, j.Contains(6, 6))

	moved := j
	moved.Request().ROI.Features[0].Geometry = square(5, 5, 10, 10) // the caller's request, changed afterwards
	require.Equal(t, square(5, 5, 10, 10), moved.Request().ROI.Features[0].Geometry)
	assert.True(t, moved.Contains(4, 4), "the area NewJob converted")
	assert.False(t, moved.Contains(6, 6))
	in := make([]bool, 10)
	moved.InsideRow(4.5, 0.5, 1, in)
	assert.Equal(t, []bool{true, true, true, true, true, false, false, false, false, false}, in)

	var literal export.Job
	literal.InsideRow(4.5, 0.5, 1, in)
	assert.Equal(t, make([]bool, 10), in)
	assert.False(t, literal.Contains(4, 4))
	assert.False(t, literal.IntersectsBox(export.Box{West: 4, South: 4, East: 6, North: 6}))
	assert.Zero(t, literal.MaskTime(10, 100))
}

// TestJobIndexConcurrent masks rows of one Job from several goroutines, as
// an export's thumbnails and rows may; run with -race.
func TestJobIndexConcurrent(t *testing.T) {
	rec := catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Footprint: square(34, 31, 35, 32), Resolution: 0.01}
	j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: holedROI(20, 20)})
	require.NoError(t, err)
	nv := naiveOf(t, j)
	var wg sync.WaitGroup
	errs := make([]int, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := make([]bool, 100)
			for y := range 100 {
				lat := 31.005 + 0.01*float64((y+25*g)%100)
				j.InsideRow(lat, 34.005, 0.01, in)
				for x, got := range in {
					if got != nv.contains(34.005+float64(float64(x)*0.01), lat) {
						errs[g]++
					}
				}
				j.IntersectsBox(export.Box{West: 34.3, South: lat, East: 34.4, North: lat + 0.05})
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, []int{0, 0, 0, 0}, errs)
}

// TestMaskTime checks that the masking time grows with the ROI's edges
// crossing the rows.
func TestMaskTime(t *testing.T) {
	rec := catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Footprint: square(34, 31, 35, 32), Resolution: 1.0 / 1200}
	newJob := func(r *exporttask.FeatureCollection) export.Job {
		j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: r})
		require.NoError(t, err)
		return j
	}
	plain, holes := newJob(holedROI(0, 0)), newJob(holedROI(holesX, holesY))
	const rows, pixels = 960, 960 * 960
	p, h := plain.MaskTime(rows, pixels), holes.MaskTime(rows, pixels)
	assert.Greater(t, p, time.Duration(0))
	assert.Greater(t, h, 3*p, "12,000 holes: about 184 edges cross each row, against 4")
	assert.Less(t, h, 100*time.Millisecond, "but each row reads only those")
}
