// Package tiles3d exports 3D records as a zipped 3D Tiles subset. Start with
// [New], which returns an [Exporter] implementing the export.Engine
// contract; [Inspect] describes a tileset to register as a record, and
// [WriteDemoSource] writes the demo record's tileset.
//
// # Source
//
// A record's source is a 3D Tiles 1.0 or 1.1 tileset directory whose main
// tileset JSON is named tileset.json: Record.Source.Path (checked with
// export.SourcePath to be unchanged since registration), or, for a record
// without a Source, Record.Location/tileset. The tileset is read in full at
// every estimate and export, in pure Go:
//   - tiles are explicit (implicitTiling and 3DTILES_implicit_tiling are
//     refused);
//   - every tile has a bounding volume region, box or sphere; box and
//     sphere are in the tile's frame, the product of the transforms
//     (column-major 4×4) from the main root down, which makes them ECEF
//     (WGS 84) coordinates; region is not transformed. A box or sphere
//     smaller than the Earth but centred within 1,000 km of its centre is
//     refused: the tileset is in local coordinates, not placed on Earth;
//   - contents are given by content or contents (1.1), with uri or, as
//     3D Tiles 1.0 tilesets in the wild still write, url; each is a
//     relative path, resolved against the tileset JSON file that names it,
//     that stays inside the directory (URLs, absolute paths, paths out of
//     it, and symbolic links out of it are refused), to a b3dm, i3dm, pnts,
//     cmpt, glb or gltf file or to an external tileset JSON (.json). A
//     .gltf's external buffers and images are read from the directory too;
//     an i3dm (also inside a cmpt) must embed its glTF;
//   - an external tileset's root is a child of the tile that names it, under
//     that tile's transform; each external tileset may be named once, cycles
//     are refused, and they nest at most 16 deep; tiles at most 64 levels;
//   - a tileset 1.1 schemaUri file is copied with the tileset;
//   - every file is a regular file inside the directory (a relative link
//     to one inside is followed; a link leading out, a FIFO or a device
//     is refused), read through sourcefs; a tileset JSON file is at most
//     [MaxJSONBytes], the tileset at most [MaxTiles] tiles, a content file
//     at most [MaxContentBytes] (an i3dm or cmpt is checked by its headers
//     only).
//
// Each tile's volume is turned into a lon/lat region for selection. A
// region across the antimeridian (west > east) is taken as every longitude.
// A box (or, for a sphere, the cube around it aligned with east, north and
// up at its centre; its radius scaled by the transform's longest stretch)
// is converted conservatively: longitudes from its
// corners (on a plane face longitude is monotonic), latitudes and heights
// from a grid of samples on its faces widened by a bound of how far the
// face can bulge between samples. A box that meets the Earth's axis spans
// every longitude up to the pole on its side; one across the antimeridian
// is widened to every longitude; one reaching both hemispheres across the
// axis, or within 1,000 km of the Earth's centre, is the whole globe. Such
// widened regions can only select more tiles, never fewer.
//
// Levels: the main root is level 0, each child and each external
// tileset's root one deeper than its parent. [Inspect] gives MinZoom 0 and
// MaxZoom the deepest level. In a record without a Source (the demo
// layout) MinZoom and MaxZoom are the EPSG:4326 grid levels of the tiles
// under the content-less root. The [ParamMaxZoom] export parameter is read
// in the record's levels.
//
// The demo tileset ([WriteDemoSource]) is 3D Tiles 1.1: a quadtree of the
// EPSG:4326 tile grid (two tiles at zoom 0) from Record.MinZoom to
// Record.MaxZoom under a content-less root over the footprint's box, every
// tile with a region volume and a .glb of a 33×33-vertex terrain mesh
// placed by its glTF node's translation at an Earth-centred (ECEF) point,
// positions as float32 offsets, in glTF's +Y-up axes (3D Tiles turns them
// to +Z up), with normals and one material; refinement is REPLACE.
//
// # Artifacts
//
// An export writes five artifacts:
//   - 3D_MODEL "<record id>.zip": the tiles whose regions meet the exported
//     area, with their ancestors, down to the maxZoom level. The tileset
//     JSON files are written deflated under their source paths (the main
//     one as tileset.json), each cut to the selected tiles: every property
//     of the file and of each kept tile is kept as stored (asset with
//     version, tilesetVersion and gltfUpAxis, extensionsUsed,
//     extensionsRequired, properties, extras, metadata, geometricError,
//     transforms, volumes, ...), only children are left out, and contents
//     naming an external tileset below the maxZoom level are removed. An
//     external tileset stays an external file, cut the same way; its root
//     is kept whenever the tile naming it is. Content files (and a .gltf's
//     files, and the schema) are stored byte for byte under their source
//     paths. The JSON files name exactly the files the zip holds;
//   - THUMBNAILS_SMALL, _MEDIUM, _LARGE "thumbnail-small.png",
//     "thumbnail-medium.png", "thumbnail-large.png", 128, 256 and 512 pixels
//     on the longest side of the exported area's box, transparent outside
//     the area: when every content of the selected leaf tiles is a .glb, or
//     a b3dm holding one, whose glTF is one node (translation only) with one
//     triangle primitive, a hillshaded, height-tinted top view of those
//     meshes, placed by glTF's +Y-up to +Z-up turn (unless asset.gltfUpAxis
//     is Z), the b3dm's RTC_CENTER and the tile's transforms; otherwise (i3dm,
//     pnts, cmpt, .gltf, Draco or other glTF, a content over 64 MiB, more
//     than 524,288 triangles over the leaves, or a drawing of more than
//     2^26 pixel tests) the regions of the selected leaf tiles, each
//     filled with the height tint of its top and outlined. A content named
//     by several leaves is read and decoded once, and the drawing stops
//     when the export's context ends;
//   - METADATA "metadata.json": a STAC 1.0.0 Item (built by the shared
//     exportio.NewItem) whose geometry and bbox are the exported area,
//     whose datetime is the time the export was made, and whose assets are
//     the zip and the thumbnails with their sizes and SHA-256 checksums
//     (the Item cannot hold its own). Its 3D properties are
//     "exporttask:minZoom" and "exporttask:maxZoom" (the record's first
//     level and the deepest exported, in the record's terms; see
//     [ParamMaxZoom]), "exporttask:tiles" (tiles in the subset, content-less
//     ones included, in every tileset JSON file), "exporttask:contentTiles"
//     (tiles with a content that is not a tileset),
//     "exporttask:tilesetVersion" (asset.version of the main tileset JSON)
//     and "exporttask:tilesetBBox" (the main root's region in degrees,
//     [west, south, east, north]; for a box or sphere, the region holding
//     it; the tiles reach beyond the exported box to their own edges).
//
// Estimates read the tileset the same way and count the bytes of the
// selected files on disk. Progress counts zip entries written, then
// thumbnails.
package tiles3d
