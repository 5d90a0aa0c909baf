// Package artifactkey holds the rules of artifact keys: where a task's
// files live in an artifact store ([Key], [Prefix]) and which keys every
// store accepts ([Check], [CheckPrefix]). The artifact stores (filestore,
// s3store), the worker and the server use it.
package artifactkey
