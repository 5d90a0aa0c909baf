// Package exporttask models the export task API: a client asks for an
// export of a catalog record (a DEM, 3D or RASTER product), optionally cut to
// a GeoJSON region of interest, and follows the task until its artifacts are
// ready to download.
//
// The JSON field names and types are those of the MapColonies
// export-management service (export-tasks API v1.6.5), so clients of that
// service can talk to this one; the package fills in what that service leaves
// undefined (units, which fields are always present, the task state machine).
//
// This package holds only the domain: types, validation, the state machine,
// the OpenAPI description and the storage contract ([Store]). Database
// drivers live in the sqlite and postgres subpackages, so importing this
// package never pulls one in.
package exporttask
