// Package taskstore is the contract between the task stores and the parts
// of the service that use them: [Store], made of the capabilities [Tasks],
// [Queue], [Outbox] and [Health], with the inputs and outputs of its
// methods ([CreateParams], [FinishParams], [Delivery], [DeliveryClaim],
// [DeliveryRecord], ...), [DedupKey], which says when two create
// requests ask for the same export, and [Identify], which computes once per
// create the [Identity] (dedup key and Idempotency-Key fingerprint, over
// the version of the source's data) that Create is given.
//
// Packages sqlite and postgres implement Store; package storetest is the
// conformance suite a Store must pass. The server takes Tasks, Outbox and
// Health, the worker's Runner a Queue, the webhook Deliverer an Outbox;
// [Instrumented] times the calls of any of them. A client or
// an exporter author does not need this package: the domain types are in
// package exporttask.
package taskstore
