// Package exportio holds what the exporters share. Start with [Write],
// which writes one artifact through an export.Output all or nothing;
// [WriteJSON] does the same for a JSON value, [ROI] gives the region an
// export covers, and [NewItem] builds the METADATA artifact of every
// domain, a STAC 1.0.0 Item.
package exportio
