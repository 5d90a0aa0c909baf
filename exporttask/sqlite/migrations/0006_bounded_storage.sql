-- Storage bounded by the quota, and Idempotency-Keys checked against the
-- request.
--
-- doc_bytes: the length of the task's document when it was inserted,
-- which counts against its customer's quota for as long as the row exists
-- (whatever the status), and is given back when the row goes. Tasks stored
-- before this version are counted from now on.
ALTER TABLE tasks ADD COLUMN doc_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE tasks SET doc_bytes = length(CAST(doc AS BLOB));
INSERT INTO customer_usage (customer, used_bytes)
	SELECT customer, sum(doc_bytes) FROM tasks GROUP BY customer HAVING sum(doc_bytes) <> 0
	ON CONFLICT (customer) DO UPDATE SET used_bytes = used_bytes + excluded.used_bytes;

-- final_at: when an ABORTED or FAILED task finished, or an EXPIRED one
-- expired (Unix milliseconds; 0 in any other status). Purge removes such
-- tasks a retention after it. The tasks already final count from now.
ALTER TABLE tasks ADD COLUMN final_at INTEGER NOT NULL DEFAULT 0;
UPDATE tasks SET final_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
	WHERE status IN ('ABORTED', 'FAILED', 'EXPIRED');
CREATE INDEX tasks_final ON tasks (final_at, id)
	WHERE status IN ('ABORTED', 'FAILED', 'EXPIRED');

-- The fingerprint of the request an Idempotency-Key was first used with
-- (see exporttask.RequestFingerprint); empty for the keys recorded before.
ALTER TABLE idempotency_keys ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
-- Deleting a task deletes the keys that name it.
CREATE INDEX idempotency_keys_task ON idempotency_keys (task_id);
