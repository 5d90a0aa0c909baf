// Package sourcefs reads the files of a record's source, and only those.
// Start with [OpenRoot], which opens a source directory (a gdal2tiles
// pyramid, a 3D Tiles tileset) as an [os.Root]; [Root.Open],
// [Root.ReadFile], [Root.Stat] and [Root.ReadDir] then reach only what
// lies inside it. [OpenFile] does the same for a source that is one file
// (a GeoTIFF), with the file's directory as the root.
//
// Every file opened must be a regular file: a symbolic link is followed
// only while it stays inside the root ([ErrOutside] otherwise), and a
// FIFO, device or socket is refused ([ErrNotRegular]). Files are opened
// without blocking and checked by fstat of the opened descriptor, so
// there is no window between a check and the open, and a FIFO never
// blocks the reader. [Root.ReadFile] refuses a file larger than the
// caller's limit before it reads a byte ([ErrTooLarge]), and reads no more
// than the limit if the file grows.
//
// Errors name the file by its path inside the source, never by an absolute
// path, so they may reach an API client.
package sourcefs
