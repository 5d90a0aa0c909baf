package sqlite

// The SQL of a claim, SQLite's own (the other statements of the write
// transactions are the shared text of [storekit.Statements]); prepared
// once on the write connection with them (see statements).
const (
	// qClaimable: ?1 now, ?2 the most running tasks per customer (0: no
	// limit), ?3 the most estimated seconds of a task to take (0: no
	// limit; a document without estimatedTime has 0). cs lists the customers with live tasks, one index probe each
	// (a skip scan of tasks_customer_queue); of those that have a claimable
	// task and are below the limit, the one served longest ago, and its
	// oldest claimable task.
	qClaimable = `WITH RECURSIVE cs(customer) AS (
			   SELECT (SELECT customer FROM tasks WHERE status IN ('PENDING', 'IN_PROGRESS') ORDER BY customer LIMIT 1)
			   UNION ALL
			   SELECT (SELECT customer FROM tasks WHERE status IN ('PENDING', 'IN_PROGRESS') AND customer > cs.customer
			           ORDER BY customer LIMIT 1)
			   FROM cs WHERE cs.customer IS NOT NULL)
			 SELECT t.id, t.doc FROM cs
			 LEFT JOIN customer_turns c ON c.customer = cs.customer
			 JOIN tasks t ON t.id = (
			   SELECT q.id FROM tasks q
			   WHERE q.customer = cs.customer AND q.status IN ('PENDING', 'IN_PROGRESS')
			     AND (q.status = 'PENDING' OR q.lease_until < ?1)
			     AND (?3 <= 0 OR coalesce(json_extract(CAST(q.doc AS TEXT), '$.estimatedTime'), 0) <= ?3)
			   ORDER BY q.id LIMIT 1)
			 WHERE ?2 <= 0 OR (SELECT count(*) FROM tasks r
			   WHERE r.customer = cs.customer AND r.status = 'IN_PROGRESS' AND r.lease_until >= ?1) < ?2
			 ORDER BY coalesce(c.last_claim, 0), cs.customer LIMIT 1`
	// qTakeTurn moves the customer of task ? to the back of the round.
	qTakeTurn = `INSERT INTO customer_turns (customer, last_claim)
			 VALUES ((SELECT customer FROM tasks WHERE id = ?), (SELECT coalesce(max(last_claim), 0) + 1 FROM customer_turns))
			 ON CONFLICT (customer) DO UPDATE SET last_claim = excluded.last_claim`
)

// writeQueries lists the queries prepared at Open: the shared ones and a
// claim's.
func (db *DB) writeQueries() []string {
	return append(db.sql.All(), qClaimable, qTakeTurn)
}

// The statements of Ping and ReleaseLeases, run as they come (not
// prepared: they are rare).
const (
	qHeartbeat     = `UPDATE heartbeat SET at = ? WHERE id = 1`
	qReleaseLeases = `UPDATE tasks SET lease_until = 0
			 WHERE status = 'IN_PROGRESS' AND lease_until > 0 AND substr(lease_owner, 1, length(?1)) = ?1`
)
