// Package worker moves export tasks through their life: a [Runner] runs a
// pool of workers that claim tasks from a [taskstore.Queue], run them
// with an [export.Exporter] writing to an [artifact.Store],
// report progress and record the outcome (retrying transient failures up
// to a maximum of attempts, and deleting the files of a failed or aborted
// export), and a sweeper that expires completed tasks once their
// retention is over and deletes their files.
//
// Workers take tasks of any size; RunnerConfig.SmallWorkers more take
// only tasks estimated as small, so that large exports cannot hold every
// worker; and while a small export runs, the large ones share
// RunnerConfig.LargeTurns turns at CPU work (see [export.Pace]), so
// they cannot hold every core either. Progress covers the export (to
// 90%) and the bytes stored (the rest). A [Wakeup] shared with whatever creates the tasks starts work as
// soon as a task is created; PollInterval is the fallback (tasks of other
// processes, retries). Before an export starts, the free space of
// RunnerConfig.SpaceDirs is checked against its estimated size.
//
// Start with [NewRunner] and [Runner.Run]. Crash safety rests on leases
// (see [Runner]): a task whose worker or process died is claimed again once
// its lease ends, so exporters must be idempotent. The reference program
// (examples/server) runs a Runner beside its HTTP server; run one in a
// separate process from the HTTP API to process tasks there, on a shared
// PostgreSQL store.
package worker
