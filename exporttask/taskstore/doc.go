// Package taskstore is the contract between the task stores and the parts
// of the service that use them: [Store], with the inputs and outputs of its
// methods ([CreateParams], [FinishParams], [Delivery], [DeliveryClaim],
// [DeliveryRecord], ...), and [DedupKey], which says when two create
// requests ask for the same export.
//
// Packages sqlite and postgres implement Store; package storetest is the
// conformance suite a Store must pass. The server, the worker and the
// webhook deliverer each declare the part of Store they call. A client or
// an exporter author does not need this package: the domain types are in
// package exporttask.
package taskstore
