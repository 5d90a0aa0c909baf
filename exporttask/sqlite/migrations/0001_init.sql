-- Tasks: the columns the queries filter and sort on, plus the task itself
-- as a JSON document (doc), which is authoritative for everything but id.
-- Times are Unix milliseconds; 0 means none.
CREATE TABLE tasks (
	id             INTEGER PRIMARY KEY AUTOINCREMENT,
	customer       TEXT    NOT NULL,
	status         TEXT    NOT NULL,
	dedup_key      TEXT    NOT NULL DEFAULT '',
	estimated_size INTEGER NOT NULL DEFAULT 0,
	expired_at     INTEGER NOT NULL DEFAULT 0,
	lease_owner    TEXT    NOT NULL DEFAULT '',
	lease_until    INTEGER NOT NULL DEFAULT 0,
	doc            BLOB    NOT NULL
);

-- List, newest first, with and without a status filter.
CREATE INDEX tasks_customer_id ON tasks (customer, id);
CREATE INDEX tasks_customer_status_id ON tasks (customer, status, id);

-- Dedup: equivalent live tasks of a customer.
CREATE INDEX tasks_dedup ON tasks (customer, dedup_key, id)
	WHERE status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED');

-- The work queue: tasks a worker may hold or claim, oldest first.
CREATE INDEX tasks_queue ON tasks (id)
	WHERE status IN ('PENDING', 'IN_PROGRESS');

-- The expiry sweep.
CREATE INDEX tasks_expiry ON tasks (expired_at, id)
	WHERE status = 'COMPLETED';

-- Idempotency-Key header values, per customer, and the task each produced.
CREATE TABLE idempotency_keys (
	customer TEXT    NOT NULL,
	key      TEXT    NOT NULL,
	task_id  INTEGER NOT NULL REFERENCES tasks (id),
	PRIMARY KEY (customer, key)
) WITHOUT ROWID;

-- Storage in use per customer: the estimated sizes of its PENDING,
-- IN_PROGRESS, PAUSED and COMPLETED tasks, kept up to date with every
-- status change so the quota check does not sum over all tasks.
CREATE TABLE customer_usage (
	customer   TEXT    PRIMARY KEY,
	used_bytes INTEGER NOT NULL
) WITHOUT ROWID;

-- The webhook outbox. state: 0 pending, 1 delivered, 2 given up.
CREATE TABLE deliveries (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id      INTEGER NOT NULL REFERENCES tasks (id),
	url          TEXT    NOT NULL,
	event        TEXT    NOT NULL,
	payload      BLOB    NOT NULL,
	created_at   INTEGER NOT NULL,
	state        INTEGER NOT NULL DEFAULT 0,
	attempts     INTEGER NOT NULL DEFAULT 0,
	next_attempt INTEGER NOT NULL,
	lease_until  INTEGER NOT NULL DEFAULT 0,
	last_error   TEXT    NOT NULL DEFAULT ''
);

-- Per task and URL, the oldest pending delivery blocks the later ones.
CREATE INDEX deliveries_pending ON deliveries (task_id, url, id) WHERE state = 0;
-- Due deliveries.
CREATE INDEX deliveries_due ON deliveries (next_attempt, id) WHERE state = 0;
