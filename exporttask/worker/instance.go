package worker

import (
	"context"
	"fmt"
	"strings"
)

// releaseOwnLeases ends the leases an earlier run of this instance left, so
// its tasks are claimed at once; nothing without an Instance.
func (r *Runner) releaseOwnLeases(ctx context.Context) error {
	if r.instance == "" {
		return nil
	}
	if strings.Contains(r.instance, "/") {
		return fmt.Errorf("worker: runner instance %q must not contain '/'", r.instance)
	}
	n, err := r.store.ReleaseLeases(ctx, r.instance+"/")
	if err != nil {
		return fmt.Errorf("worker: releasing the leases of instance %q: %w", r.instance, err)
	}
	if n > 0 {
		r.log.InfoContext(ctx, "worker: resuming the tasks of an earlier run", "instance", r.instance, "tasks", n)
	}
	return nil
}
