-- Claims take turns among customers: Claim serves the customer whose
-- last_claim is the smallest (0: never served; ties by name) and sets it
-- from customer_turn_seq, above every other, so one customer's burst
-- cannot starve another.
CREATE SEQUENCE customer_turn_seq;
CREATE TABLE customer_turns (
	customer   text   PRIMARY KEY,
	last_claim bigint NOT NULL DEFAULT 0 -- a counter, not a time
);
CREATE INDEX customer_turns_order ON customer_turns (last_claim, customer);

-- Every task's customer has a row: the trigger adds it at the customer's
-- first task (an index probe for the later ones), the INSERT below for the
-- tasks already queued.
CREATE FUNCTION tasks_customer_turn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO customer_turns (customer) VALUES (NEW.customer) ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;
CREATE TRIGGER tasks_customer_turn AFTER INSERT ON tasks
	FOR EACH ROW EXECUTE FUNCTION tasks_customer_turn();
INSERT INTO customer_turns (customer)
	SELECT DISTINCT customer FROM tasks WHERE status IN ('PENDING', 'IN_PROGRESS');

-- A customer's queue, oldest first.
CREATE INDEX tasks_customer_queue ON tasks (customer, id)
	WHERE status IN ('PENDING', 'IN_PROGRESS');
