-- Claims take turns among customers: Claim serves the customer whose
-- last_claim is the smallest (0: never served; ties by name) and sets it
-- above every other, so one customer's burst cannot starve another.
CREATE TABLE customer_turns (
	customer   TEXT    PRIMARY KEY,
	last_claim INTEGER NOT NULL DEFAULT 0 -- a counter, not a time
) WITHOUT ROWID;
CREATE INDEX customer_turns_order ON customer_turns (last_claim, customer);

-- Every task's customer has a row: the trigger adds it at the customer's
-- first task, the INSERT below for the tasks already queued.
CREATE TRIGGER tasks_customer_turn AFTER INSERT ON tasks
BEGIN
	INSERT OR IGNORE INTO customer_turns (customer) VALUES (NEW.customer);
END;
INSERT INTO customer_turns (customer)
	SELECT DISTINCT customer FROM tasks WHERE status IN ('PENDING', 'IN_PROGRESS');

-- A customer's queue, oldest first.
CREATE INDEX tasks_customer_queue ON tasks (customer, id)
	WHERE status IN ('PENDING', 'IN_PROGRESS');
