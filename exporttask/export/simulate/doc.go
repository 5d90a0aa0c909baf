// Package simulate is an [exporttask.Exporter] that does no real work: a
// [Simulator] waits, reports progress and returns artifacts with plausible
// names, sizes, download URLs and digests. The reference server
// (examples/server) and package exporttasktest use it; real exporters of
// raster, DEM and 3D products are to live beside it, under export/.
//
// Start with [New]; the zero [Config] gives 30-second exports.
package simulate
