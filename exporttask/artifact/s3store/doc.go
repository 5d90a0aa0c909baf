// Package s3store is an [artifact.Store] on an S3-compatible
// bucket (AWS S3, Versity Gateway, MinIO, Ceph RGW...), for replicas that
// must serve each other's artifacts. It is the only package of the module
// that imports the AWS SDK (aws-sdk-go-v2's service/s3).
//
// Start with [ConfigFromEnv] and [New]:
//
//	cfg, err := s3store.ConfigFromEnv("s3://exports/prod", os.Getenv)
//	store, err := s3store.New(cfg)
//
// The key "42/export.gpkg" is the object "prod/42/export.gpkg". Path-style
// addressing is used when the endpoint's host is an IP address or
// localhost, or when [Config.PathStyle] is set.
//
// Writes are multipart uploads, started by Create: a writer fills one part
// buffer ([Config.PartSize]) while up to [Config.Concurrency] full parts
// upload, so a file of any size takes at most Concurrency+1 buffers of
// memory. Commit completes the upload, Abort (or any failure) aborts it,
// and DeletePrefix aborts the uploads under the prefix before deleting its
// objects. Objects are read lazily with ranged GETs, so http.ServeContent
// answers Range requests without fetching the whole file. [Store.PresignGet]
// mints download URLs.
//
// The store does not keep a file's SHA-256 in the bucket: Commit reports
// it, Open and List leave it empty.
//
// Parts are sent with SigV4's unsigned payload and a CRC32C checksum that
// the server verifies, so the writer hashes each byte once (for the
// SHA-256). A part still on its way when an upload is aborted may land
// anyway (AWS documents this and advises aborting again; Versity Gateway
// 1.8.0 even lets such a part bring the upload back, which can then
// complete), so DeletePrefix looks for uploads a second time after deleting
// the objects, and a task's writer should also be stopped through its
// context.
package s3store
