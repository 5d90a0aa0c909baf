// Command webhook-receiver receives the export task server's webhooks on
// this machine: it checks each delivery's signature, drops deliveries it
// has already seen, and prints one line per event. It is the other half of
// the quick start in docs/exporttask.md.
//
// With the reference server running in another terminal (allowed to reach
// loopback, which its address guard refuses otherwise):
//
//	go run ./examples/server -webhook-allow 127.0.0.0/8
//
// start the receiver with the API key the server printed:
//
//	go run ./examples/webhook-receiver -key "$KEY"
//
// and create a task whose webhook is the receiver's URL,
// http://127.0.0.1:8090/hooks (any path is accepted). Each delivery then
// prints a line such as
//
//	2026-11-23T14:40:02.123Z delivery 2: TASK_COMPLETED task 1 COMPLETED 100% artifacts: x.gpkg (GPKG, 1.23 MB)
//
// Where the secret comes from: with -key, the receiver asks the server
// (GET /webhook-secret, at the -secret-from URL) for the secret that signs
// the key's customer's webhooks, once, at start. That is the quick start's
// way, because the newcomer already has the key and nothing more to copy.
// The server keeps its generated key and master secret next to its SQLite
// file, so both survive its restarts; a server started with another
// -webhook-secret signs with other secrets, and then the receiver must be
// restarted too. A receiver that must
// not hold an API key is given the secret itself with -secret (the
// "whsec_..." value GET /webhook-secret returns, never the server's master
// secret).
//
// What it answers:
//
//	204  a delivery whose v2 signature matches (also a repeated delivery
//	     id, which is logged and not printed again)
//	400  no or malformed X-Export-Signature / X-Export-Delivery header, or a
//	     signed body that is not an event
//	401  a signature that does not match, or a timestamp further than
//	     -tolerance from this machine's clock (a replay, or skewed clocks)
//	413  a body over 1 MiB
//
// The server gives up on a delivery answered 400, 401 or 413 and retries
// 404, 408, 409, 425, 429 and 5xx; refusals are logged to standard error,
// events are printed to standard output.
//
// Flags:
//
//	-addr         listen address (default 127.0.0.1:8090)
//	-key          API key of the customer whose webhooks arrive here (write scope: GET /webhook-secret needs it)
//	-secret-from  URL of the server's GET /webhook-secret (default http://localhost:8080/webhook-secret)
//	-secret       the customer's webhook secret (whsec_...); when given, nothing is fetched
//	-tolerance    how far a signature's timestamp may be from now (default 5m)
//
// Start reading at run (main.go), then receiver.go.
package main
