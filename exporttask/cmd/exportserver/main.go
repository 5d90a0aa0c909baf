// Command exportserver runs the reference export task service, with its
// documentation served by the viewer. examples/server, at the repository's
// root, is the same program, so the commands below work from there as
// "go run ./examples/server"; from this module's directory (exporttask/) they
// are "go run ./cmd/exportserver".
//
// Start it with no set-up (SQLite file exporttask.db in the working
// directory, a development API key printed at start):
//
//	go run ./examples/server
//
// then, with the printed key:
//
//	curl -i -H "x-api-key: $KEY" -H 'Content-Type: application/json' \
//	  -d '{"catalogRecordID":"8b867544-2dab-43a1-be6e-f23ec83c19b4","domain":"RASTER","artifactCRS":"4326","webhook":[{"url":"http://127.0.0.1:8090/hooks","events":["TASK_COMPLETED"]}]}' \
//	  http://localhost:8080/export-tasks
//	curl -s -H "x-api-key: $KEY" http://localhost:8080/export-tasks/1
//	curl -s -H "Authorization: Bearer $KEY" 'http://localhost:8080/export-tasks?limit=5&status=COMPLETED'
//
// and open http://localhost:8080/docs/ for the API's documentation.
//
// The start-up text prints one such create per domain (RASTER, DEM, 3D),
// ready to paste. It listens on 127.0.0.1:8080, this machine only, and
// then lets webhooks reach loopback receivers: run ./examples/webhook-receiver
// as the start-up text says to see the signed deliveries. "-addr :8080"
// listens on every interface (give -keys then, and -webhook-allow for
// receivers on private networks).
//
// The main flags, each with an environment variable (a flag wins); "go run
// ./examples/server -h" lists every one (-exporter, -catalog, -artifacts,
// -scratch, the S3, download and rate-limit flags, ...):
//
//	-addr           EXPORTTASK_ADDR            listen address (default 127.0.0.1:8080, this machine only;
//	                                           :8080 listens on every interface: set -keys then)
//	-db             EXPORTTASK_DB              SQLite FILE, :memory:, or postgres://... (default exporttask.db)
//	-keys           EXPORTTASK_KEYS            key=customer[:scopes],... scopes read, write joined by +
//	                                           (default: a generated development key)
//	-quota          EXPORTTASK_QUOTA           storage quota per customer, bytes (default 0: unlimited)
//	-task-duration  EXPORTTASK_TASK_DURATION   simulated export time, with -exporter simulate (default 30s)
//	-retention      EXPORTTASK_RETENTION       how long artifacts stay available (default 720h)
//	-final-retention EXPORTTASK_FINAL_RETENTION how long ABORTED, FAILED and EXPIRED tasks stay stored
//	                                           before they are removed (default 168h)
//	-webhook-secret EXPORTTASK_WEBHOOK_SECRET  HMAC secret of webhooks (default: generated, printed)
//	-webhook-allow  EXPORTTASK_WEBHOOK_ALLOW   CIDRs webhooks may reach although private, e.g. 10.0.0.0/8
//	                                           (default: 127.0.0.0/8 and ::1 while -addr is loopback only)
//	-max-running    EXPORTTASK_MAX_RUNNING     most tasks of one customer running at once, over all servers
//	                                           sharing the database (default 0: no limit; claims take turns
//	                                           among customers either way)
//	-instance       EXPORTTASK_INSTANCE        this server's stable name across restarts, unique among the
//	                                           servers sharing the database (default: the host name); a
//	                                           restarted server resumes its own tasks at once
//	-scratch        EXPORTTASK_SCRATCH         where exports build their files, in DIR/INSTANCE/, emptied at
//	                                           start (default exporttask-scratch next to the -db file)
//
// # Your own data
//
// The catalog subcommand registers sources as records of the catalog
// (-catalog, EXPORTTASK_CATALOG, default exporttask-catalog in the working
// directory: the server started in the same directory finds them):
//
//	go run ./examples/server catalog add -domain DEM /data/elevation.tif
//	go run ./examples/server catalog add -domain RASTER /data/tiles.gpkg
//	go run ./examples/server catalog add -domain RASTER /data/ortho-utm.tif
//	go run ./examples/server catalog add -domain RASTER -scheme xyz /data/tiles/
//	go run ./examples/server catalog add -domain 3D -title 'City mesh' /data/tileset/
//	go run ./examples/server catalog list
//	go run ./examples/server catalog remove 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05
//
// add prints the record as one line of JSON (its id, domain, title,
// footprint, minZoom and maxZoom or resolution, and source) and exits 0; a source that cannot be exported is refused
// with one line on stderr naming the file, the problem and what to do,
// exit status 1, and nothing is written. Its flags: -domain RASTER|DEM|3D
// (required), -id UUID (default: random), -title TEXT (default: the
// data's title if it has one, else the source's name), -footprint FILE.geojson (replaces the data's footprint),
// -copy (copy the source into the record instead of referencing it by
// absolute path), -table NAME (the tile table of a GeoPackage), -scheme
// tms|xyz (the row order of a tile directory, default tms), -replace (with
// -id: register a moved or changed source again under its record's id;
// an existing -id without it is refused, naming -replace). A source
// already registered under another id is registered again, with a warning
// on stderr naming that record. list prints
// one record per line as JSON; remove deletes a record and a copied
// source, never a referenced one. Usage errors exit with status 2; see
// "go run ./examples/server catalog -h".
//
// SIGINT or SIGTERM stops it gracefully: in-flight requests finish, workers
// stop, and unfinished tasks resume at the next start.
package main

import (
	"os"

	"github.com/openapi-viewer/viewer/exporttask/exportserver"
)

func main() {
	os.Exit(exportserver.Main(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}
