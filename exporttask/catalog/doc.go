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
// # A source's identity
//
// A record that references its source keeps the size, modification time
// and two fingerprints of the file (or of a directory's index file,
// tilemapresource.xml or tileset.json; see [Source]):
//
//   - Content, the SHA-256 of the whole file, computed once when the
//     source is registered. A whole-file hash is the one rule that fits
//     every format (GeoTIFF, GeoPackage, index files) and that no rewrite
//     escapes; its cost, one sequential read of the file, is paid at
//     registration, where reading the source is expected, and again only
//     when the modification time moved (below). A hash of the blocks a
//     reader uses (a GeoTIFF's IFDs and tiles) would cost as much for a
//     whole export and would need one rule per format.
//   - Quick, the SHA-256 of the size and of the first and last
//     [QuickBytes] of the file: cheap enough for every create and export
//     (128 KiB read, whatever the source's size). It covers a GeoTIFF's
//     header and, for a cloud-optimized GeoTIFF, its IFDs and tile
//     offsets and byte counts, which a rewrite of its data almost always
//     changes (the tiles' compressed sizes move); a GeoPackage's first
//     page, whose file change counter SQLite bumps at each write in
//     rollback-journal mode, and its schema; a small index file whole.
//
// [Source.Check] applies them: another size is a change; the same size
// and modification time is checked with Quick; another modification time
// with Content, read whole once: the same content is accepted (a touch, a
// copy without -p, a restore from backup) and the record takes the new
// time ([Refresh]), other content is a change, whose message gives the
// command that registers the source again ([ReplaceCommand]). So a create
// reads 128 KiB of its source, except the first one after the file's time
// moved. What the quick check cannot see, a rewrite of the middle of a
// file keeping its size and modification time, `catalog verify` finds:
// it reads every source whole. The tiles of a tile directory and the
// contents of a tileset are not fingerprinted (a pyramid of a million
// files would be read whole at each registration): their index file is,
// and a tile directory without one is identified by its entries' names.
//
// A source's [Source.Version], part of an export's dedup key, follows the
// content fingerprint rather than the modification time, so the same
// request after a touch is the same export, and after a change a new one.
//
// Record ids are UUIDs, compared in canonical lower case. An id that is not
// a UUID is never used as a path: it is simply not found.
package catalog
