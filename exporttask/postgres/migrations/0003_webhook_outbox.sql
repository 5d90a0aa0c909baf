-- The receiver's host (lower-case host:port of the URL), so that a
-- deliverer can share its attempts fairly between receivers, and when the
-- outcome of a delivered or given-up row was recorded (Unix milliseconds,
-- 0 while pending), so that such rows can be pruned after a while.
ALTER TABLE deliveries ADD COLUMN host text NOT NULL DEFAULT '';
ALTER TABLE deliveries ADD COLUMN done_at bigint NOT NULL DEFAULT 0;

-- Pruning: finished rows, oldest outcome first.
CREATE INDEX deliveries_done ON deliveries (done_at, id) WHERE state <> 0;
-- A task's deliveries, for GET /export-tasks/{id}/deliveries.
CREATE INDEX deliveries_task ON deliveries (task_id, id);
