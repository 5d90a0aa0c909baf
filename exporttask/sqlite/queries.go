package sqlite

// The SQL of the write transactions, prepared once on the write connection
// (see statements).
const (
	qInsertDelivery = `INSERT INTO deliveries (task_id, url, host, event, payload, created_at, next_attempt) VALUES (?, ?, ?, ?, ?, ?, ?)`
	qDueDeliveries  = `WITH due AS (
			   SELECT d.id, ROW_NUMBER() OVER (PARTITION BY d.host ORDER BY d.next_attempt, d.id) AS n
			   FROM deliveries d
			   WHERE d.state = 0 AND d.next_attempt <= ? AND d.lease_until < ?
			     AND d.host NOT IN (SELECT value FROM json_each(?))
			     AND NOT EXISTS (SELECT 1 FROM deliveries e
			                     WHERE e.state = 0 AND e.task_id = d.task_id AND e.url = d.url AND e.id < d.id))
			 SELECT d.id, d.task_id, d.url, d.event, d.attempts, d.payload, d.created_at, d.host, t.customer
			 FROM due JOIN deliveries d ON d.id = due.id JOIN tasks t ON t.id = d.task_id
			 WHERE due.n <= ?
			 ORDER BY d.next_attempt, d.id LIMIT ?`
	qLeaseDelivery = `UPDATE deliveries SET lease_until = ? WHERE id = ?`
	qDeliveryState = `SELECT state FROM deliveries WHERE id = ?`
	qDeliveryDone  = `UPDATE deliveries SET state = ?, attempts = attempts + 1, lease_until = 0,
			        last_status_code = ?, last_error_class = ?, last_error = ?,
			        next_attempt = CASE WHEN ? = 0 THEN next_attempt ELSE ? END, done_at = ?
			 WHERE id = ?`
	qPruneDeliveries = `DELETE FROM deliveries WHERE id IN (
			 SELECT id FROM deliveries WHERE state <> 0 AND done_at < ? ORDER BY done_at, id LIMIT ?)`
	qTaskDeliveries = `SELECT id, task_id, url, event, state, attempts, last_status_code, last_error_class, last_error,
			        created_at, next_attempt, done_at
			 FROM deliveries WHERE task_id = ? AND id > ? ORDER BY id LIMIT ?`
	qCopyDelivery = `INSERT INTO deliveries (task_id, url, host, event, payload, created_at, next_attempt)
			 SELECT task_id, url, host, event, payload, ?, ? FROM deliveries WHERE id = ? AND task_id = ?
			 RETURNING id`
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
	qExpirable = `SELECT id, doc FROM tasks WHERE status = 'COMPLETED' AND expired_at <= ?
			 ORDER BY expired_at, id LIMIT ?`
	qCustomerTask = `SELECT id, doc FROM tasks WHERE id = ? AND customer = ?`
	qLeasedTask   = `SELECT doc, lease_owner, lease_until FROM tasks WHERE id = ?`
	qUpdateTask   = `UPDATE tasks SET status = ?, expired_at = ?, lease_owner = ?, lease_until = ?, doc = ?, final_at = ?
		 WHERE id = ? RETURNING customer`
	qAddUsage = `INSERT INTO customer_usage (customer, used_bytes) VALUES (?, ?)
		 ON CONFLICT (customer) DO UPDATE SET used_bytes = used_bytes + excluded.used_bytes`
	qIdempotencyKey = `SELECT task_id, fingerprint FROM idempotency_keys WHERE customer = ? AND key = ?`
	qDuplicate      = `SELECT id, doc FROM tasks
			 WHERE customer = ? AND dedup_key = ? AND status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED')
			   AND (status <> 'COMPLETED' OR expired_at > ?)
			 ORDER BY id DESC LIMIT 1`
	qUsage       = `SELECT used_bytes FROM customer_usage WHERE customer = ?`
	qInsertTask  = `INSERT INTO tasks (customer, status, dedup_key, estimated_size, doc, doc_bytes) VALUES (?, ?, ?, ?, ?, ?)`
	qRememberKey = `INSERT INTO idempotency_keys (customer, key, fingerprint, task_id) VALUES (?, ?, ?, ?)`
	// The statements of DeleteTask, in order; the last one returns the
	// task's document bytes.
	qDeleteDeliveries = `DELETE FROM deliveries WHERE task_id = ?`
	qDeleteKeys       = `DELETE FROM idempotency_keys WHERE task_id = ?`
	qDeleteTask       = `DELETE FROM tasks WHERE id = ? RETURNING doc_bytes`
	qPurgeable        = `SELECT id, customer FROM tasks
			 WHERE status IN ('ABORTED', 'FAILED', 'EXPIRED') AND final_at <= ?
			 ORDER BY final_at, id LIMIT ?`
)

// writeQueries lists the queries prepared at Open.
func writeQueries() []string {
	return []string{qInsertDelivery, qDueDeliveries, qPruneDeliveries, qTaskDeliveries, qCopyDelivery, qLeaseDelivery, qDeliveryState, qDeliveryDone, qClaimable, qTakeTurn, qExpirable, qCustomerTask, qLeasedTask, qUpdateTask, qAddUsage, qIdempotencyKey, qDuplicate, qUsage, qInsertTask, qRememberKey, qDeleteDeliveries, qDeleteKeys, qDeleteTask, qPurgeable}
}

// The statements of Ping and ReleaseLeases, run as they come (not
// prepared: they are rare).
const (
	qHeartbeat     = `UPDATE heartbeat SET at = ? WHERE id = 1`
	qReleaseLeases = `UPDATE tasks SET lease_until = 0
			 WHERE status = 'IN_PROGRESS' AND lease_until > 0 AND substr(lease_owner, 1, length(?1)) = ?1`
)
