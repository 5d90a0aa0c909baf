-- Storage bounded by the quota, and Idempotency-Keys checked against the
-- request.
--
-- doc_bytes: the length of the task's document (as the store encoded it)
-- when it was inserted, which counts against its customer's quota for as
-- long as the row exists (whatever the status), and is given back when the
-- row goes. Tasks stored before this version are counted from now on, by
-- the length of their document's text form.
ALTER TABLE tasks ADD COLUMN doc_bytes bigint NOT NULL DEFAULT 0;
UPDATE tasks SET doc_bytes = octet_length(doc::text);
INSERT INTO usage_changes (customer, bytes)
	SELECT customer, sum(doc_bytes)::bigint FROM tasks GROUP BY customer HAVING sum(doc_bytes) <> 0;

-- final_at: when an ABORTED or FAILED task finished, or an EXPIRED one
-- expired (Unix milliseconds; 0 in any other status). Purge removes such
-- tasks a retention after it. The tasks already final count from now.
ALTER TABLE tasks ADD COLUMN final_at bigint NOT NULL DEFAULT 0;
UPDATE tasks SET final_at = (extract(epoch FROM now()) * 1000)::bigint
	WHERE status IN ('ABORTED', 'FAILED', 'EXPIRED');
CREATE INDEX tasks_final ON tasks (final_at, id)
	WHERE status IN ('ABORTED', 'FAILED', 'EXPIRED');

-- The fingerprint of the request an Idempotency-Key was first used with
-- (see exporttask.RequestFingerprint); empty for the keys recorded before.
ALTER TABLE idempotency_keys ADD COLUMN fingerprint text NOT NULL DEFAULT '';
-- Deleting a task deletes the keys that name it.
CREATE INDEX idempotency_keys_task ON idempotency_keys (task_id);
