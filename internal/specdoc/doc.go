// Package specdoc loads the OpenAPI documents the viewer serves: it reads a
// document (a file, bytes or an object to encode), bundles the files its
// $refs name (package bundle), converts it to JSON and checks it (package
// transcode).
//
// Start with [Load], which returns a [Document]: its JSON, its YAML (made
// when asked for), its title and the files it was read from. For watching,
// [Stamp] records those files' sizes and modification times and
// [Stamps.Same] tells whether they changed; [UnreadFile] names a file a
// failed Load could not read, so that it is watched too. A problem with a
// document is a *transcode.Error (the root package's SpecError), a problem
// with the value given for it an error wrapping [ErrInvalidConfig] (the
// root package's); the root package returns both as they are.
package specdoc
