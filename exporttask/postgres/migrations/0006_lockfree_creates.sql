-- Creates of one customer without a lock when no quota applies.
--
-- Dedup: at most one PENDING or IN_PROGRESS task per customer and dedup
-- key. Two concurrent creates of the same export both insert; the second
-- fails on this index once the first commits, and runs again, finding the
-- first. COMPLETED tasks are not in it: one past its expiredAt, not yet
-- swept to EXPIRED, is no longer a duplicate, and a new task may share its
-- key.
CREATE UNIQUE INDEX tasks_dedup_live ON tasks (customer, dedup_key)
	WHERE status IN ('PENDING', 'IN_PROGRESS') AND dedup_key <> '';

-- Storage in use per customer, as a ledger: every change appends a row,
-- so concurrent creates, finishes and dismissals of one customer never
-- wait on each other (one row per customer, updated in place, was a row
-- lock that serialised them). The customer's usage is the sum of its rows;
-- a create under the customer's lock (with a quota, or now and then
-- without one, see tasks.go) folds them into one.
CREATE TABLE usage_changes (
	id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	customer text   NOT NULL,
	bytes    bigint NOT NULL
);
CREATE INDEX usage_changes_customer ON usage_changes (customer) INCLUDE (bytes);

INSERT INTO usage_changes (customer, bytes)
	SELECT customer, used_bytes FROM customer_usage WHERE used_bytes <> 0;
DROP TABLE customer_usage;
