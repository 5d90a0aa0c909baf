// Package exporttask models the export task API: a client asks for an
// export of a catalog record (a DEM, 3D or RASTER product), optionally cut to
// a GeoJSON region of interest, and follows the task until its artifacts are
// ready to download.
//
// The JSON field names and types are those of the MapColonies
// export-management service (export-tasks API v1.6.5 and v1.7.0, whose
// create bodies differ in the name of the webhook array: see
// [RequestShape]), so clients of that service can talk to this one; the package fills in what that service leaves
// undefined (units, which fields are always present, the task state machine).
//
// This package is the domain of the service, shared by its client, its
// server and its exporters: the request and task types ([CreateRequest],
// [Task]), validation and strict decoding, the task state machine
// ([Transition]), the error types and their [Problem] bodies, the limits,
// the webhook payload and signature ([EventPayload], [SignWebhook],
// [VerifyWebhook]), the OpenAPI description ([OpenAPI]) and the contracts
// the other packages implement: [Exporter] and [Output]. It imports no HTTP server, no viewer and no database driver;
// the implementations live in subpackages:
//
//	client           the Go client of the API
//	server           the HTTP API: handlers, API keys, problems, docs
//	worker           the Runner: export workers, leases, expiry sweeper
//	webhook          the Deliverer: signed deliveries, retries, SSRF guard
//	export           the Exporter over a Catalog, with the RASTER (export/raster),
//	                 DEM (export/dem) and 3D (export/tiles3d) exporters
//	export/simulate  the Simulator, an Exporter that writes stand-in files
//	catalog          the catalog Record and the file Catalog; catalog/demo
//	                 writes the demo records
//	artifact         the artifact store contract; artifact/filestore on a directory,
//	                 artifact/s3store on S3, artifact/artifacttest its conformance suite
//	taskstore        the contract of the task stores (Store) and their inputs
//	sqlite, postgres the Store on SQLite and on PostgreSQL
//	storetest        the conformance suite every Store passes
//	exporttasktest   a running server for downstream tests
//
// To call the API from Go, start with package client; to run the service,
// with package server (cmd/exportserver, run as examples/server from the repository's root, is the reference program); to write
// an exporter, with [Exporter].
//
// # Creating a task
//
// A server reads the body of POST /export-tasks with [DecodeCreateRequest],
// which decodes strictly and validates; every problem with the body comes
// back at once in a *[ValidationError], each with a JSON Pointer:
//
//	req, err := exporttask.DecodeCreateRequest(http.MaxBytesReader(w, r.Body, exporttask.MaxBodyBytes))
//	var ve *exporttask.ValidationError
//	if errors.As(err, &ve) {
//		// answer 400 with ve.Problem()
//	}
//
// A request built in Go is checked with [CreateRequest.Validate]. The limits
// are constants: [MaxBodyBytes], [MaxFeatures], [MaxPositions] and the
// others in limits.go. Error responses are [Problem] bodies (RFC 9457);
// [ValidationError.Problem] builds the 400 body. The rules a
// region of interest follows are listed at [FeatureCollection]; the task
// state machine at [Transition].
package exporttask
