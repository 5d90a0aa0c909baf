package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// migrationFiles counts the migrations of the package.
func migrationFiles(t *testing.T) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return len(files)
}
