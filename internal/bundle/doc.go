// Package bundle turns an OpenAPI document whose $refs point into other
// files into one document, for the viewer.
//
// Start with [Bundle]: it rewrites a parsed document in place. First the
// outline: a $ref standing for the whole document, for one of its sections
// (info, paths, components, definitions, ...) or for a components map is
// replaced by a copy of what it points to, and each components entry that
// is only a $ref to another file becomes the home of that file and pointer.
// Then every other $ref: an object with a components section becomes an
// entry there (its home, or a new entry named after its key or file), and
// the $ref points to it; anything else is copied in place of its $ref. It
// reads the files with the [ReadFunc] it is given. [HasFileRefs] is the
// cheap test that lets a document with no file $ref skip bundling.
//
// Problems are *transcode.Error values naming the file and line of the
// $ref; [Result.Locate] rewrites a problem found later in a copied part to
// name the $ref that brought it and the file it came from.
package bundle
