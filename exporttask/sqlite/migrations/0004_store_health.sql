-- One row that Ping rewrites: a ping that cannot write this row (read-only
-- database, full disk) reports the store not ready.
CREATE TABLE heartbeat (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	at INTEGER NOT NULL
);
INSERT INTO heartbeat (id, at) VALUES (1, 0);
