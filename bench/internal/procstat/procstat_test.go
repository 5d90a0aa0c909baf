package procstat

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRssAnonReadsTheLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status")
	if err := os.WriteFile(path, []byte("Name:\tx\nRssAnon:\t    1234 kB\nRssFile:\t5 kB\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, ok := RssAnon(path); !ok || n != 1234<<10 {
		t.Fatalf("RssAnon = %d, %v; want %d, true", n, ok, 1234<<10)
	}
	if _, ok := RssAnon(filepath.Join(t.TempDir(), "missing")); ok {
		t.Fatal("a missing file reads as ok")
	}
}

func TestRunQuotesAFailure(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	if _, err := Run(context.Background(), exec.Command(sh, "-c", "echo broken >&2; exit 3"), time.Millisecond); err == nil ||
		!strings.Contains(err.Error(), "broken") {
		t.Fatalf("Run of a failing command: %v; want its stderr quoted", err)
	}
	r, err := Run(context.Background(), exec.Command(sh, "-c", "exit 0"), time.Millisecond)
	if err != nil || r.Wall <= 0 {
		t.Fatalf("Run = %+v, %v", r, err)
	}
}
