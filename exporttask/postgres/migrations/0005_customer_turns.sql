-- Claims take turns among customers: Claim serves, among the customers
-- with a claimable task, the one whose last_claim is the smallest (no row:
-- never served, first; ties by name) and sets it from customer_turn_seq,
-- above every other, so one customer's burst cannot starve another. Claim
-- writes the rows.
CREATE SEQUENCE customer_turn_seq;
CREATE TABLE customer_turns (
	customer   text   PRIMARY KEY,
	last_claim bigint NOT NULL DEFAULT 0 -- a counter, not a time
);

-- The customers with live tasks, and each one's queue, oldest first.
CREATE INDEX tasks_customer_queue ON tasks (customer, id)
	WHERE status IN ('PENDING', 'IN_PROGRESS');
