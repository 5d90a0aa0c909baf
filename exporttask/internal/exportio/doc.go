// Package exportio holds what the dem and tiles3d exporters share. Start
// with [Write], which writes one artifact through an exporttask.Output all
// or nothing; [WriteJSON] does the same for a JSON value, [ROI] gives the
// region an export covers, and [MetadataArtifacts] lists artifacts for a
// METADATA file.
package exportio
