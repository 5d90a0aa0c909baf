// Package stactest checks a METADATA artifact as a STAC 1.0.0 Item, for the
// exporters' tests: [Check] tests every member that STAC 1.0.0's
// item-spec requires, and those the file (v2.1.0) and projection (v1.1.0)
// extensions require, against the JSON as written, and returns the Item
// decoded for the test's own assertions.
package stactest
