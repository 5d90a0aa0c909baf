package worker

import (
	"context"
	"log/slog"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// cleanupTimeout bounds one removal of a task's files, which may run after
// shutdown has begun.
const cleanupTimeout = 30 * time.Second

// deleteArtifacts removes every file of task id from the artifact store. A
// failure is logged: the files stay until the task is dismissed or expires.
func (r *Runner) deleteArtifacts(ctx context.Context, log *slog.Logger, id int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if err := r.artifacts.DeletePrefix(ctx, artifactkey.Prefix(id)); err != nil {
		log.ErrorContext(ctx, "worker: deleting the task's artifact files", "error", err)
	}
}

// cleanUpLost removes the files of a task whose lease this worker lost:
// the task was aborted (the usual case), or, after this worker went silent
// for a whole lease, another worker took it over, which then writes its
// files again from the start (its uncommitted writes may fail and be
// retried).
func (r *Runner) cleanUpLost(ctx context.Context, log *slog.Logger, t exporttask.Task) {
	r.deleteArtifacts(ctx, log, t.ID)
}
