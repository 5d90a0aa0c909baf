// Package exporttask models the export task API: a client asks for an
// export of a catalog record (a DEM, 3D or RASTER product), optionally cut to
// a GeoJSON region of interest, and follows the task until its artifacts are
// ready to download.
//
// The JSON field names and types are those of the MapColonies
// export-management service (export-tasks API v1.6.5), so clients of that
// service can talk to this one; the package fills in what that service leaves
// undefined (units, which fields are always present, the task state machine).
//
// This package is the domain of the service, shared by its client, its
// server and its exporters: the request and task types ([CreateRequest],
// [Task]), validation and strict decoding, the task state machine
// ([Transition]), the error types and their [Problem] bodies, the limits,
// the webhook payload and signature ([MarshalEvent], [SignWebhook],
// [VerifyWebhook]), the OpenAPI description ([OpenAPI]) and the contracts
// the other packages implement: [Store], [Exporter], [Catalog],
// [ArtifactStore] and [Output]. It imports no HTTP server, no viewer and no
// database driver; the implementations live in subpackages:
//
//	client           the Go client of the API
//	server           the HTTP API: handlers, API keys, problems, docs
//	worker           the Runner: export workers, leases, expiry sweeper
//	webhook          the Deliverer: signed deliveries, retries, SSRF guard
//	export           the Exporter over a Catalog, with the RASTER (export/raster),
//	                 DEM (export/dem) and 3D (export/tiles3d) exporters
//	export/simulate  the Simulator, an Exporter that writes stand-in files
//	catalog          the file Catalog; catalog/demo writes the demo records
//	artifact/...     the ArtifactStore on a directory (filestore) or S3 (s3store)
//	sqlite, postgres the Store on SQLite and on PostgreSQL
//	storetest        the conformance suite every Store passes
//	exporttasktest   a running server for downstream tests
//
// To call the API from Go, start with package client; to run the service,
// with package server (examples/server is the reference program); to write
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
// [ProblemFor] builds the ones this package's errors call for.
//
// # Regions of interest
//
// ROI is optional: without it the whole record is exported. When present it
// is a GeoJSON FeatureCollection (RFC 7946) that must
//
//   - have "type": "FeatureCollection" and 1 to [MaxFeatures] features: an
//     empty features array is rejected, as a region without area is a
//     client mistake; leave ROI out to export the whole record;
//   - hold only Features ("type": "Feature") with a "properties" member
//     (an object whose values may be anything, null included, within the
//     limits of keywords; or null itself) and a geometry of type Polygon or MultiPolygon (a null
//     geometry or any other type is rejected, naming the accepted types);
//   - have, in each polygon, at least one linear ring, and in each ring 4
//     to [MaxRingPositions] positions, the last equal to the first;
//   - have positions of 2 or 3 finite numbers, longitude in [-180, 180]
//     and latitude in [-90, 90] degrees (the optional third is an
//     altitude in meters);
//   - have at most [MaxPositions] positions in all.
//
// Members other than those named (such as "bbox", "id" or foreign members)
// are rejected like any unknown field. Ring orientation (the right-hand
// rule) is not checked: RFC 7946 asks parsers not to reject on it.
//
// # Task statuses
//
// A task starts PENDING. Every status change goes through [Transition],
// which allows exactly the moves below and names the event each emits;
// every other pair is refused with a *[TransitionError]:
//
//	from         to           event
//	PENDING      IN_PROGRESS  TASK_STARTED
//	PENDING      PAUSED       TASK_PAUSED
//	PENDING      FAILED       TASK_FAILED
//	PENDING      ABORTED      TASK_ABORTED
//	IN_PROGRESS  COMPLETED    TASK_COMPLETED
//	IN_PROGRESS  FAILED       TASK_FAILED
//	IN_PROGRESS  ABORTED      TASK_ABORTED
//	IN_PROGRESS  PAUSED       TASK_PAUSED
//	PAUSED       IN_PROGRESS  TASK_IN_PROGRESS
//	PAUSED       FAILED       TASK_FAILED
//	PAUSED       ABORTED      TASK_ABORTED
//	COMPLETED    EXPIRED      TASK_EXPIRED
//	COMPLETED    ARCHIVED     TASK_ARCHIVED
//	FAILED       ARCHIVED     TASK_ARCHIVED
//	ABORTED      ARCHIVED     TASK_ARCHIVED
//	EXPIRED      ARCHIVED     TASK_ARCHIVED
//
// COMPLETED, FAILED, ABORTED, EXPIRED and ARCHIVED are final
// ([Status.Final]): the export work is over and the task can no longer be
// aborted, only expire (COMPLETED) or be archived. ARCHIVED is terminal: no
// move leaves it. Two events come without a status change: TASK_IN_PROGRESS
// when an IN_PROGRESS task reports progress, and TASK_UPDATED when a
// duplicate create adds webhooks to an existing task.
package exporttask
