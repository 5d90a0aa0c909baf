// Package demo writes the demo catalog of the reference server: three
// synthetic records of the same landscape (longitude 34–35, latitude
// 31–32) with fixed ids, one per domain, so that a fresh server exports
// something real out of the box.
//
// Start with [Write]; [Records] lists the records it writes.
package demo
