// Package simulate is an [export.Exporter] that does no real work: a
// [Simulator] accepts any catalog record id, waits, reports progress and
// writes one small text file per artifact type through the
// [export.Output], so that downloads work. Package exporttasktest uses
// it by default, and the reference server (examples/server) with
// -exporter simulate; the real exporters of RASTER, DEM and 3D products
// live beside it, under export/.
//
// Start with [New]; the zero [Config] gives 30-second exports.
package simulate
