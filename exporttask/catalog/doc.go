// Package catalog is the file-backed export.Catalog (package export): one directory per
// record under a root directory,
//
//	<root>/<id>/record.json   the record (the JSON of Record)
//	<root>/<id>/...           the record's data, read by the domain exporters
//
// Start with [Open] to look records up, and [WriteRecord] to add one: it
// builds the record in a temporary directory and renames it into place, so a
// reader never sees a half-built record. [Catalog.List] returns every
// record and [Catalog.Remove] deletes one the same way, in one step. To
// register a source (a GeoTIFF, a tile pyramid, a tileset) as a record,
// see package register.
//
// Record ids are UUIDs, compared in canonical lower case. An id that is not
// a UUID is never used as a path: it is simply not found.
package catalog
