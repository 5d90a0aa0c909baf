-- Creates of one customer without a lock when no quota applies.
--
-- Dedup: at most one PENDING, IN_PROGRESS or COMPLETED task per customer
-- and dedup key. Two concurrent creates of the same export both insert;
-- the second fails on this index once the first commits, and runs again,
-- finding the first. A COMPLETED task past its expiredAt (not yet swept
-- to EXPIRED) is no longer a duplicate: the create that finds one clears
-- its dedup_key, which only serves dedup, before inserting the new task.
-- Under the customer's lock, earlier versions could leave such a task next
-- to a newer one with its key: keep the key on the newest only.
UPDATE tasks AS t SET dedup_key = ''
	WHERE status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED') AND dedup_key <> ''
	  AND EXISTS (SELECT 1 FROM tasks AS n
	              WHERE n.customer = t.customer AND n.dedup_key = t.dedup_key AND n.id > t.id
	                AND n.status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED'));
CREATE UNIQUE INDEX tasks_dedup_live ON tasks (customer, dedup_key)
	WHERE status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED') AND dedup_key <> '';

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
