// Package apiparam reads and writes the identifiers the HTTP API puts in
// paths and queries: task and delivery ids in canonical decimal form, and
// the opaque cursors of the list pages (the Link headers' rel="next").
// Package server uses it; start at [ParseTaskID] and [FormatCursor].
package apiparam
