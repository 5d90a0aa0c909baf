// Package jobtest builds the export.Job values that the domain exporters'
// tests need, as the dispatcher in package export would: start with [Job].
// [DemoFootprint] and [Triangle] are the demo catalog's footprint and a
// region of interest inside it; [Files] lists what an export left in a
// directory.
package jobtest
