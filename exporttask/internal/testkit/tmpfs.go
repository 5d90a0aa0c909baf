package testkit

import (
	"os/exec"
	"strings"
	"testing"
)

// MountTmpfs mounts a tmpfs of size (mount's notation: "1m", "8m") on the
// existing directory dir, for a test of a full disk, and unmounts it when
// the test ends. It skips the test where a tmpfs cannot be mounted (not
// root, or in a container without the capability).
func MountTmpfs(t testing.TB, dir, size string) {
	t.Helper()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (%v: %s): skipping the full-disk test", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
}
