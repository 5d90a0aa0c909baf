package exportserver

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMainExitStatuses: the program's entry point answers -h with the
// flags and 0, a wrong flag with its message and 2, and hands "catalog" to
// the catalog command (its list of an empty catalog directory: nothing, 0).
func TestMainExitStatuses(t *testing.T) {
	noEnv := func(string) string { return "" }
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, Main([]string{"-h"}, noEnv, &out, &errOut))
	assert.Contains(t, errOut.String(), "-addr")

	out.Reset()
	errOut.Reset()
	assert.Equal(t, 2, Main([]string{"-no-such-flag"}, noEnv, &out, &errOut))
	assert.Contains(t, errOut.String(), "server:")
	assert.Contains(t, errOut.String(), "no-such-flag")

	out.Reset()
	errOut.Reset()
	assert.Equal(t, ExitOK, Main([]string{"catalog", "list", "-catalog", t.TempDir()}, noEnv, &out, &errOut), errOut.String())
	assert.Empty(t, out.String())
}
