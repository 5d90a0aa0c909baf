// Package specdoc loads the OpenAPI documents the viewer serves: it reads a
// document (a file, bytes or an object to encode), bundles the files its
// $refs name (package bundle), converts it to JSON and checks it (package
// transcode).
//
// Start with [Loader.Load], which returns a [Document]: its JSON, its YAML
// (made when asked for), its title and the files it was read from. For
// watching, [Loader.Stamp] records those files' sizes and modification
// times and [Stamps.Same] tells whether they changed; [Loader.UnreadFile]
// names a file a failed Load could not read, so that it is watched too.
// Problems with a document are an [*Error], problems with the value given
// for it a [*ConfigError]; the root package turns both into its own
// errors, with the same text.
package specdoc
