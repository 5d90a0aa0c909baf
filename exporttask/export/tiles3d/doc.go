// Package tiles3d exports 3D records as a zipped 3D Tiles subset. Start with
// [New], which returns an [Exporter] implementing the export.Domain
// contract; a record's data is made by [WriteDemoSource].
//
// # Source
//
// A record's directory (Record.Location) holds tileset/, a 3D Tiles 1.1
// tileset: tileset.json whose every tile has a boundingVolume.region
// (radians, EPSG:4979) and whose content URIs are relative paths inside the
// directory, each a glTF 2.0 binary (.glb). The demo tileset is a quadtree of
// the EPSG:4326 tile grid (two tiles at zoom 0) from Record.MinZoom to
// Record.MaxZoom under a content-less root over the footprint's box; each
// tile holds a 33×33-vertex terrain mesh placed by its glTF node's
// translation at an Earth-centred (ECEF) point, positions as float32
// offsets, in glTF's +Y-up axes (3D Tiles turns them to +Z up), with
// normals and one material; refinement is REPLACE.
//
// # Artifacts
//
// An export writes five artifacts:
//   - 3D_MODEL "<record id>.zip": tileset.json (deflated) naming only the
//     tiles whose regions meet the exported area, with their ancestors, and
//     those tiles' .glb files (stored) under their original paths;
//   - THUMBNAILS_SMALL, _MEDIUM, _LARGE "thumbnail-small.png",
//     "thumbnail-medium.png", "thumbnail-large.png": a hillshaded, height-tinted
//     top view of the finest exported meshes over the exported area's box, 128, 256
//     and 512 pixels on the longest side, transparent outside the area;
//   - METADATA "metadata.json": see [Metadata].
//
// Progress counts zip entries written, then thumbnails.
package tiles3d
