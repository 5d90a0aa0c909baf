// Package bundle turns an OpenAPI document whose $refs point into other
// files into one document, for the viewer.
//
// Start with [Bundle]: it rewrites a parsed document in place, making each
// object another file holds an entry of the document's components (path
// items are copied in place of their $ref) and pointing the $ref there; it
// reads the files with the [ReadFunc] it is given. [HasFileRefs] is the
// cheap test that lets a document with no file $ref skip bundling.
// Problems are *transcode.Error values naming the file and line of the
// $ref.
package bundle
