// Package artifact is the contract of the stores that keep the files
// exports produce: [Store], with [Object] for reading a committed file and
// [Presigner] for stores that hand out download URLs. A file is written
// through a [Writer], the same an exporter writes through.
//
// Implementations: package filestore (a directory) and package s3store
// (an S3-compatible bucket); package artifacttest is the conformance suite
// a Store must pass. The worker writes through a Store and the server
// serves downloads from one.
package artifact
