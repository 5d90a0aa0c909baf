-- One row that Ping rewrites: a ping that cannot write this row (read-only
-- database or standby, full disk) reports the store not ready.
CREATE TABLE heartbeat (
	id integer PRIMARY KEY CHECK (id = 1),
	at bigint  NOT NULL
);
INSERT INTO heartbeat (id, at) VALUES (1, 0);
