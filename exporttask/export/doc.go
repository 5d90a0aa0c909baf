// Package export is the contract between the task service and the code
// that exports: an [Exporter] estimates a request and writes a task's
// artifacts through an [Output]; a [PermanentError] fails the task at once.
//
// It also runs real exports over a catalog: [CatalogExporter] looks the
// requested record up, checks the request against it (domain, region of
// interest) and hands a [Job] to the [Engine] of the record's domain: the
// raster (GeoPackage), dem (GeoTIFF) and tiles3d (3D Tiles) subpackages.
// Start with [New], giving it a [Catalog] (the catalog package has one on
// a directory) and an Engine per domain; [CatalogExporter.Estimate] is
// called when a task is created, [CatalogExporter.Export] when a worker
// runs it. Share one CatalogExporter between a process's creates and its
// workers: it learns from the exports how long they take against their
// estimates and scales the time estimates of each domain to match (see
// [CatalogExporter.Estimate]). [NewJob] builds a Job without a catalog,
// for an engine's own tests.
package export
