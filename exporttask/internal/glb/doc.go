// Package glb writes and reads the binary glTF 2.0 files (.glb) that the
// 3D Tiles exporter uses as tile content: one node (with a translation)
// holding one indexed triangle mesh with positions, normals and a single
// material. Start with [Encode] and [Decode].
//
// A .glb is a 12-byte header (magic "glTF", version 2, total length), a JSON
// chunk padded with spaces and a BIN chunk padded with zeros, each chunk
// starting with its length and type and each 4-byte aligned (glTF 2.0,
// section 4.4). Coordinates are glTF's: right-handed, +Y up; 3D Tiles turns
// them to its +Z up frame when it loads the content.
package glb
