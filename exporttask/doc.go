// Package exporttask is the domain of the export task API: a client asks
// for an export of a catalog record (a DEM, 3D or RASTER product),
// optionally cut to a GeoJSON region of interest, and follows the task
// until its artifacts are ready to download. The JSON is that of the
// MapColonies export-management service, v1.6.5 and v1.7.0 (see
// [RequestShape]), with what it leaves undefined filled in.
//
// The package holds what a client and a server share: the request and task
// types ([CreateRequest], [Task]), strict decoding and validation, the state
// machine ([Transition]), the error bodies ([Problem]), the webhook payload
// and signature ([EventPayload], [VerifyWebhook]) and the OpenAPI
// description; it imports no HTTP server and no database driver. Package
// client calls the API, package server serves it (the program is
// cmd/exportserver), and an exporter implements export.Exporter; the other
// subpackages are the worker, webhook deliverer, catalog, and artifact and
// task stores.
//
// # Creating a task
//
// [DecodeCreateRequest] decodes the body of POST /export-tasks strictly and
// validates it, returning every problem at once in a *[ValidationError]:
//
//	req, err := exporttask.DecodeCreateRequest(http.MaxBytesReader(w, r.Body, exporttask.MaxBodyBytes))
//	var ve *exporttask.ValidationError
//	if errors.As(err, &ve) {
//		// answer 400 with ve.Problem()
//	}
package exporttask
