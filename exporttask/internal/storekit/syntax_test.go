package storekit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The syntaxes of packages sqlite and postgres.
const (
	sqliteSyntax   = "sqlite"
	postgresSyntax = "postgres"
)

func syntaxOf(name string) Syntax {
	if name == postgresSyntax {
		return Syntax{Dollar: true, Locks: true}
	}
	return Syntax{JSONLists: true}
}

func TestRender(t *testing.T) {
	q := `SELECT id FROM deliveries d WHERE d.id = ?1 AND d.host NOT IN ({texts ?2}) AND d.id IN ({ints ?12}) ORDER BY id LIMIT ?2 {FOR UPDATE OF d SKIP LOCKED}`
	assert.Equal(t,
		`SELECT id FROM deliveries d WHERE d.id = ?1 AND d.host NOT IN (SELECT value FROM json_each(?2)) AND d.id IN (SELECT value FROM json_each(?12)) ORDER BY id LIMIT ?2 `,
		syntaxOf(sqliteSyntax).Render(q))
	assert.Equal(t,
		`SELECT id FROM deliveries d WHERE d.id = $1 AND d.host NOT IN (SELECT unnest(CAST($2 AS text[]))) AND d.id IN (SELECT unnest(CAST($12 AS bigint[]))) ORDER BY id LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
		syntaxOf(postgresSyntax).Render(q))
	assert.PanicsWithValue(t, "storekit: unknown {LOCK} in the SQL text", func() { syntaxOf(sqliteSyntax).Render(`SELECT 1 {LOCK}`) })
}

// TestStatementsRendered: every shared statement renders to text with
// nothing of the shared notation left.
func TestStatementsRendered(t *testing.T) {
	for _, name := range []string{sqliteSyntax, postgresSyntax} {
		s := syntaxOf(name)
		st := NewStatements(s)
		all := st.All()
		assert.Len(t, all, len(shared()))
		for _, q := range all {
			assert.NotContains(t, q, "{", q)
			if s.Dollar {
				assert.NotContains(t, q, "?", q)
			} else {
				assert.NotContains(t, q, "$", q)
				assert.NotContains(t, q, "FOR UPDATE", q)
			}
		}
		assert.Equal(t, st.SQL(qCustomerTask), st.Task()+map[bool]string{true: " FOR UPDATE", false: " "}[s.Locks])
		assert.True(t, strings.HasPrefix(st.Duplicate(), "SELECT id, doc FROM tasks"))
	}
}

func TestList(t *testing.T) {
	assert.Equal(t, `["a","b"]`, syntaxOf(sqliteSyntax).List([]string{"a", "b"}))
	assert.Equal(t, `[]`, syntaxOf(sqliteSyntax).List([]string(nil)))
	assert.Equal(t, `[1,2]`, syntaxOf(sqliteSyntax).List([]int64{1, 2}))
	assert.Equal(t, []int64{1, 2}, syntaxOf(postgresSyntax).List([]int64{1, 2}))
	assert.Equal(t, "$3", syntaxOf(postgresSyntax).Placeholder(3))
	assert.Equal(t, "?3", syntaxOf(sqliteSyntax).Placeholder(3))
}
