-- Tasks: the columns the queries filter and sort on, plus the task itself
-- as a JSON document (doc), which is authoritative for everything but id.
-- Times are Unix milliseconds; 0 means none.
CREATE TABLE tasks (
	id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	customer       text   NOT NULL,
	status         text   NOT NULL,
	dedup_key      text   NOT NULL DEFAULT '',
	estimated_size bigint NOT NULL DEFAULT 0,
	expired_at     bigint NOT NULL DEFAULT 0,
	lease_owner    text   NOT NULL DEFAULT '',
	lease_until    bigint NOT NULL DEFAULT 0,
	doc            jsonb  NOT NULL
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
	customer text   NOT NULL,
	key      text   NOT NULL,
	task_id  bigint NOT NULL REFERENCES tasks (id),
	PRIMARY KEY (customer, key)
);

-- Storage in use per customer: the estimated sizes of its PENDING,
-- IN_PROGRESS, PAUSED and COMPLETED tasks, kept up to date with every
-- status change so the quota check does not sum over all tasks.
CREATE TABLE customer_usage (
	customer   text   PRIMARY KEY,
	used_bytes bigint NOT NULL
);

-- The webhook outbox. state: 0 pending, 1 delivered, 2 given up.
CREATE TABLE deliveries (
	id           bigint   GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	task_id      bigint   NOT NULL REFERENCES tasks (id),
	url          text     NOT NULL,
	event        text     NOT NULL,
	payload      bytea    NOT NULL,
	created_at   bigint   NOT NULL,
	state        smallint NOT NULL DEFAULT 0,
	attempts     integer  NOT NULL DEFAULT 0,
	next_attempt bigint   NOT NULL,
	lease_until  bigint   NOT NULL DEFAULT 0,
	last_error   text     NOT NULL DEFAULT ''
);

-- Per task and URL, the oldest pending delivery blocks the later ones.
CREATE INDEX deliveries_pending ON deliveries (task_id, url, id) WHERE state = 0;
-- Due deliveries.
CREATE INDEX deliveries_due ON deliveries (next_attempt, id) WHERE state = 0;
