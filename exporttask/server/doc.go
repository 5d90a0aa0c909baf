// Package server is the export task service behind the HTTP API: routes and
// handlers for POST, GET and DELETE /export-tasks and the artifact
// downloads (GET and HEAD /export-tasks/{id}/artifacts/{name}), a task's
// webhook deliveries (GET /export-tasks/{id}/deliveries, POST
// /export-tasks/{id}/deliveries/{deliveryId}/redeliver), API keys and their
// scopes, RFC 9457 problem answers, health checks (/healthz, /readyz) and
// the API's documentation (/docs/ and /openapi.json, served by this
// module's viewer).
//
// Start with [New]: give it a [Config] with a store (package sqlite or
// postgres), an exporter for the estimates (package export over a catalog,
// package export/simulate, or your own [export.Exporter]), an artifact
// store (package artifact/filestore or artifact/s3store), API keys
// ([APIKey], [ParseKeys], [GenerateKey]), the webhook secret and the check
// of webhook URLs, and serve [Server.Handler] with an http.Server. The
// Server only answers requests: beside it, on the same store, run the
// export workers and the expiry sweeper (a Runner of package worker) and
// the webhook delivery (a Deliverer of package webhook), their store calls
// timed in the server's metrics through [Server.TimeWorkerStore] and
// [Server.TimeDelivererStore]. The Server calls the store methods of
// [Store]; a store of package sqlite or postgres has them all.
//
// Every response carries an X-Request-Id header; every error answer is an
// [exporttask.Problem] whose requestId is that id, and every record logged
// with the request's context (a 500, for one) carries it too. A request
// whose client goes away before the answer is logged at INFO, not as a
// server error, and counted in the metrics with status 499. A 400 lists
// its problems in errors, each located by a JSON Pointer into the body or
// by a parameter's name. An Idempotency-Key is looked up once, by the
// store's Create, after the request is estimated: the estimate gives the
// version of the record's data, which is part of the request's identity
// (422 when the key is reused with another body, or with the same body
// after the record was registered again with other data), and
// [Config.CreateRate] limits each customer's creates (429 with
// Retry-After), and its redeliveries in buckets of their own. A
// redelivery is refused (409) while a delivery of the same event to the
// same URL of the task is pending, so redeliveries cannot pile up on a
// receiver. GET /metrics serves Prometheus metrics: requests, store
// latency, tasks by status, queue depth and webhook deliveries.
//
// Downloads serve at most [MaxRanges] ranges (416 beyond, and for a
// malformed or unsatisfiable Range), answer failed If-Match and
// If-Unmodified-Since with 412, and are cut only after their client read
// nothing for [Config.DownloadIdleTimeout], never for their length. A write
// that meets a full disk ([exporttask.ErrStorageFull]) is answered 507 with
// Retry-After, and /readyz answers 503 while the store cannot write.
// GET /webhook-secret needs the write scope. Webhook URLs are stored in the
// form [Config.CheckWebhookURL] returns (with webhook.URLChecker, the form
// deliveries dial).
//
// The reference program around this package is cmd/exportserver (run as
// examples/server from the repository's root); its wiring is package
// exportserver.
package server
