package storekit

// The SQL text of the statements, written once for both databases (see
// [Syntax] for the ?n, {FOR UPDATE …} and {texts ?n} parts).
const (
	qTask           = `SELECT id, doc FROM tasks WHERE id = ?1 AND customer = ?2`
	qCustomerTask   = qTask + ` {FOR UPDATE}`
	qLeasedTask     = `SELECT doc, lease_owner, lease_until FROM tasks WHERE id = ?1 {FOR UPDATE}`
	qIdempotencyKey = `SELECT task_id, fingerprint FROM idempotency_keys WHERE customer = ?1 AND key = ?2`
	qDuplicate      = `SELECT id, doc FROM tasks
		 WHERE customer = ?1 AND dedup_key = ?2 AND status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED')
		   AND (status <> 'COMPLETED' OR expired_at > ?3)
		 ORDER BY id DESC LIMIT 1 {FOR UPDATE}`
	qUsage    = `SELECT used_bytes FROM customer_usage WHERE customer = ?1`
	qAddUsage = `INSERT INTO customer_usage (customer, used_bytes) VALUES (?1, ?2)
		 ON CONFLICT (customer) DO UPDATE SET used_bytes = customer_usage.used_bytes + excluded.used_bytes`
	// qInsertTask runs through [Conn.Insert], which returns the new id.
	qInsertTask = `INSERT INTO tasks (customer, status, dedup_key, estimated_size, doc, doc_bytes)
		 VALUES (?1, ?2, ?3, ?4, ?5, ?6)`
	qUpdateTask = `UPDATE tasks SET status = ?1, expired_at = ?2, lease_owner = ?3, lease_until = ?4, doc = ?5, final_at = ?6
		 WHERE id = ?7 RETURNING customer`
	qRememberKey = `INSERT INTO idempotency_keys (customer, key, fingerprint, task_id) VALUES (?1, ?2, ?3, ?4)`
	// The statements of DeleteTask, in order; the last one returns the
	// task's document bytes.
	qDeleteDeliveries = `DELETE FROM deliveries WHERE task_id = ?1`
	qDeleteKeys       = `DELETE FROM idempotency_keys WHERE task_id = ?1`
	qDeleteTask       = `DELETE FROM tasks WHERE id = ?1 RETURNING doc_bytes`
	qPurgeable        = `SELECT id, customer FROM tasks
		 WHERE status IN ('ABORTED', 'FAILED', 'EXPIRED') AND final_at <= ?1
		 ORDER BY final_at, id LIMIT ?2 {FOR UPDATE SKIP LOCKED}`
	qExpirable = `SELECT id, doc FROM tasks WHERE status = 'COMPLETED' AND expired_at <= ?1
		 ORDER BY expired_at, id LIMIT ?2 {FOR UPDATE SKIP LOCKED}`

	qInsertDelivery = `INSERT INTO deliveries (task_id, url, host, event, payload, created_at, next_attempt)
		 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)`
	// qDueDeliveries: ?1 now, ?2 the hosts to skip, ?3 the most per host,
	// ?4 the most in all. The conditions are checked again on the row
	// once locked: another transaction may have claimed it since this
	// one's snapshot.
	qDueDeliveries = `WITH due AS (
		   SELECT d.id, ROW_NUMBER() OVER (PARTITION BY d.host ORDER BY d.next_attempt, d.id) AS n
		   FROM deliveries d
		   WHERE d.state = 0 AND d.next_attempt <= ?1 AND d.lease_until < ?1
		     AND d.host NOT IN ({texts ?2})
		     AND NOT EXISTS (SELECT 1 FROM deliveries e
		                     WHERE e.state = 0 AND e.task_id = d.task_id AND e.url = d.url AND e.id < d.id))
		 SELECT d.id, d.task_id, d.url, d.event, d.attempts, d.payload, d.created_at, d.host, t.customer
		 FROM deliveries d JOIN due ON due.id = d.id JOIN tasks t ON t.id = d.task_id
		 WHERE due.n <= ?3 AND d.state = 0 AND d.next_attempt <= ?1 AND d.lease_until < ?1
		 ORDER BY d.next_attempt, d.id LIMIT ?4 {FOR UPDATE OF d SKIP LOCKED}`
	qLeaseDeliveries = `UPDATE deliveries SET lease_until = ?1 WHERE id IN ({ints ?2})`
	qDeliveryState   = `SELECT state FROM deliveries WHERE id = ?1 {FOR UPDATE}`
	qRecordAttempt   = `UPDATE deliveries SET state = ?1, attempts = attempts + 1, lease_until = 0,
		        last_status_code = ?2, last_error_class = ?3, last_error = ?4,
		        next_attempt = CASE WHEN CAST(?5 AS BIGINT) = 0 THEN next_attempt ELSE CAST(?5 AS BIGINT) END, done_at = ?6
		 WHERE id = ?7`
	qPruneDeliveries = `DELETE FROM deliveries WHERE id IN (
		   SELECT id FROM deliveries WHERE state <> 0 AND done_at < ?1 ORDER BY done_at, id LIMIT ?2 {FOR UPDATE SKIP LOCKED})`
	qTaskDeliveries = `SELECT id, task_id, url, event, state, attempts, last_status_code, last_error_class, last_error,
		        created_at, next_attempt, done_at
		 FROM deliveries WHERE task_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3`
	qCopyDelivery = `INSERT INTO deliveries (task_id, url, host, event, payload, created_at, next_attempt)
		 SELECT task_id, url, host, event, payload, ?1, ?1 FROM deliveries WHERE id = ?2 AND task_id = ?3
		 RETURNING id`
)

// shared lists the statements of the shared text, which [NewStatements]
// renders; a statement added above is added here.
func shared() []string {
	return []string{qTask, qCustomerTask, qLeasedTask, qIdempotencyKey, qDuplicate, qUsage, qAddUsage,
		qInsertTask, qUpdateTask, qRememberKey, qDeleteDeliveries, qDeleteKeys, qDeleteTask,
		qPurgeable, qExpirable, qInsertDelivery, qDueDeliveries, qLeaseDeliveries,
		qDeliveryState, qRecordAttempt, qPruneDeliveries, qTaskDeliveries, qCopyDelivery}
}

// Statements is the shared SQL text of this package rendered once in one
// database's [Syntax], for [SQLTx] and [SQLStore]. Create it with
// [NewStatements].
type Statements struct {
	syntax Syntax
	text   map[string]string // shared text -> rendered
}

// NewStatements renders the shared SQL text in syntax s.
func NewStatements(s Syntax) *Statements {
	st := &Statements{syntax: s, text: map[string]string{}}
	for _, q := range shared() {
		st.text[q] = s.Render(q)
	}
	return st
}

// Syntax is the syntax the statements are rendered in.
func (s *Statements) Syntax() Syntax { return s.syntax }

// SQL returns the shared statement q in the database's syntax.
func (s *Statements) SQL(q string) string {
	if r, ok := s.text[q]; ok {
		return r
	}
	return s.syntax.Render(q)
}

// Task is the statement that reads the row (id, doc) of task ?1 of
// customer ?2, outside a write transaction.
func (s *Statements) Task() string { return s.text[qTask] }

// Usage is the statement that reads the used_bytes of customer ?1 in the
// customer_usage table.
func (s *Statements) Usage() string { return s.text[qUsage] }

// IdempotencyKey is the statement that reads the (task_id, fingerprint)
// that customer ?1's Idempotency-Key ?2 names.
func (s *Statements) IdempotencyKey() string { return s.text[qIdempotencyKey] }

// Duplicate is the statement that reads (and locks) the row (id, doc) of
// customer ?1's newest task with dedup key ?2 that is live at ?3 (Unix
// milliseconds); see [Tx.LookUp].
func (s *Statements) Duplicate() string { return s.text[qDuplicate] }

// All lists the rendered statements, for a store that prepares them.
func (s *Statements) All() []string {
	out := make([]string, 0, len(s.text))
	for _, q := range shared() {
		out = append(out, s.text[q])
	}
	return out
}
